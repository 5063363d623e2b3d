# Which OpenCL implementation an application script's child process uses: the environment for a
# target named 'pocl' (Debian's PoCL 3.1), 'tessera' (this checkout's ./build), 'tessera:<build
# dir>' or anything else (an .icd file or a folder of them), each optionally with '+NAME=value'
# settings. Shared by opencv_battery.py,
# clfft_check.py and build_latency.py, which add their applications' own variables.
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POCL_ICD = "/etc/OpenCL/vendors/pocl.icd"


def opencl_env(spec, base=None):
    """A copy of `base` (default: this process's environment) set up for the target `spec`.

    A spec may end with settings for that target's process: 'tessera+TESSERA_WIDEN=0' (several
    joined by '+'), so that one run compares a setting against the default."""
    env = dict(os.environ if base is None else base)
    # Settings are peeled from the right, only in the NAME=value form ('+' may be in a path).
    while (m := re.fullmatch(r"(.*)\+([A-Z_][A-Z0-9_]*)=([^+]*)", spec)):
        spec = m.group(1)
        env[m.group(2)] = m.group(3)
    if spec == "pocl":
        env["OCL_ICD_VENDORS"] = POCL_ICD
    elif spec == "tessera" or spec.startswith("tessera:"):
        build = spec.split(":", 1)[1] if ":" in spec else os.path.join(ROOT, "build")
        build = os.path.abspath(build)
        env["LD_LIBRARY_PATH"] = os.path.join(build, "lib") + (
            ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        env["ZE_ENABLE_ALT_DRIVERS"] = "libze_tessera.so.1"
        env["OCL_ICD_VENDORS"] = os.path.join(build, "icd")
    else:
        env["OCL_ICD_VENDORS"] = spec
    return env
