#!/usr/bin/env python3
"""One of CLBlast's correctness tests (Debian's clblast-tests) over Tessera: every precision it runs
must end with no failed case and no case left out because its kernel did not build.
Usage: clblast_check.py /usr/bin/clblast_test_<routine>

One known fault of the tests themselves is set apart: iHAMAX (half-precision amax, run since the
device reports cl_khr_fp16) always fails its canary check. CLBlast 1.5.3's Xamax test downloads
the index as a vector of T holding only element 0 (test/routines/level1/xamax.hpp,
DownloadResult), while its half reference converts the whole scalar buffer, canary included, so
"Buffer overflow index 1" is reported for every case whatever the device computed. And its kernel
takes the last of equal maxima (`x >= max`, and `>=` in its reduction) where the CBLAS reference
takes the first: with 4,096 halves drawn from [-2, 2), whose top binade has steps of 2^-10, equal
maxima are likely (n=4096 incx=7: reference index 0, CLBlast 1303). Such a section is rerun with
-verbose and passes only if every failing case reports nothing but the canary (index >= 1) and,
for n < 4096, its result (index 0) matched."""
import re
import subprocess
import sys

KNOWN_CANARY_FAULT = "iHAMAX"


def run(args):
    out = subprocess.run(args, capture_output=True, text=True, timeout=1200)
    return out.returncode, re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)


def sections(text):
    """The output split by routine: {name: text of its section}."""
    parts = re.split(r"\* Starting tests for the '(\w+)' routine", text)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def failed_count(text):
    return sum(int(n) for n in re.findall(r"(\d+) test\(s\) failed", text))


def only_canary_faults(binary):
    """True when, run verbosely, each failing iHAMAX case reports nothing but the canary."""
    _, text = run([binary, "-verbose"])
    section = sections(text).get(KNOWN_CANARY_FAULT, "")
    cases = re.split(r"\n\s*Testing: ", section)[1:]
    failing = [c for c in cases if re.search(r"^\s*X\s*$", c, re.M)]
    for case in failing:
        size = re.match(r"n=(\d+)", case)
        ties_likely = size is not None and int(size.group(1)) >= 4096
        mismatches = [l.strip() for l in case.splitlines()
                      if re.match(r"\s*(Buffer overflow|Error at)", l)]
        if not mismatches:
            return False
        for line in mismatches:
            m = re.match(r"(Buffer overflow|Error at) index (\d+):", line)
            if not m or (int(m.group(2)) < 1 and not ties_likely):
                return False
    return bool(failing)


binary = sys.argv[1]
code, text = run([binary])
passed = sum(int(n) for n in re.findall(r"(\d+) test\(s\) passed", text))
failed = failed_count(text)
known = 0
by_routine = sections(text)
if failed and failed_count(by_routine.get(KNOWN_CANARY_FAULT, "")) and only_canary_faults(binary):
    known = failed_count(by_routine[KNOWN_CANARY_FAULT])
    failed -= known
    if code == 1 and failed == 0:
        code = 0  # the binary's exit code counts the known faults too
# Progress lines hold one mark per case; '\' is "not executed: OpenCL-kernel compilation error".
unbuilt = sum(l.count("\\") for l in text.splitlines() if re.fullmatch(r"   [:.X/\\o-]+", l))
if code != 0 or failed or unbuilt or not passed:
    sys.exit(f"{binary}: exit {code}, {passed} passed, {failed} failed, "
             f"{unbuilt} not built\n{text[-3000:]}")
note = (f", {known} iHAMAX cases failing only on CLBlast's own faults (canary, ties)" if known
        else "")
print(f"{binary}: {passed} passed, none failed{note}, every kernel built")
