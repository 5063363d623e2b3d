#!/usr/bin/env python3
"""One of CLBlast's correctness tests (Debian's clblast-tests) over Tessera: every precision it runs
must end with no failed case and no case left out because its kernel did not build.
Usage: clblast_check.py /usr/bin/clblast_test_<routine>"""
import re
import subprocess
import sys

out = subprocess.run([sys.argv[1]], capture_output=True, text=True, timeout=1200)
text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
passed = sum(int(n) for n in re.findall(r"(\d+) test\(s\) passed", text))
failed = sum(int(n) for n in re.findall(r"(\d+) test\(s\) failed", text))
# Progress lines hold one mark per case; '\' is "not executed: OpenCL-kernel compilation error".
unbuilt = sum(l.count("\\") for l in text.splitlines() if re.fullmatch(r"   [:.X/\\o-]+", l))
if out.returncode != 0 or failed or unbuilt or not passed:
    sys.exit(f"{sys.argv[1]}: exit {out.returncode}, {passed} passed, {failed} failed, "
             f"{unbuilt} not built\n{text[-3000:]}")
print(f"{sys.argv[1]}: {passed} passed, none failed, every kernel built")
