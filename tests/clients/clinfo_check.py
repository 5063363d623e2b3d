#!/usr/bin/env python3
"""clinfo over Tessera: it must list the platform and answer every query without an error.
Usage: clinfo_check.py <clinfo>"""
import re
import subprocess
import sys

out = subprocess.run([sys.argv[1]], capture_output=True, text=True, timeout=120)
text = out.stdout + out.stderr
if out.returncode != 0:
    sys.exit(f"clinfo exited with {out.returncode}\n{text[-2000:]}")
if "Tessera" not in text:
    sys.exit("clinfo does not list Tessera\n" + text[-2000:])
# clinfo prints a failed query as "<error: ...>" or names the CL error code.
bad = [l for l in text.splitlines() if re.search(r"<error|CL_INVALID|Invalid |error \(-?\d+\)", l)]
if bad:
    sys.exit("clinfo reports errors:\n" + "\n".join(bad))
# Images (issue 18): clinfo lists image support and the limits it queries with it.
for want in (r"Image support\s+Yes", r"Max 2D image size\s+\d+x\d+ pixels",
             r"Max 3D image size\s+\d+x\d+x\d+ pixels", r"Max number of samplers per kernel\s+\d+",
             r"Max number of read image args\s+\d+"):
    if not re.search(want, text):
        sys.exit(f"clinfo does not show {want!r}\n" + text[-2000:])
print(f"clinfo: {len(text.splitlines())} lines, no error")
