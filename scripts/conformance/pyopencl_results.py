#!/usr/bin/env python3
"""Reads pytest's JUnit XML from pyopencl's test suite (scripts/conformance/clients.sh).
  pyopencl_results.py counts RESULTS.xml
      one line per test file, "file|passed/failed/skipped", then "all|..."
  pyopencl_results.py tessera-only TESSERA.xml POCL.xml
      the test functions Tessera fails and PoCL passes, each with the first line of its error
      (pyopencl's build error prints the device's build log: its first line is the cause)"""
import collections
import sys
import xml.etree.ElementTree as ET


def cases(path):
    for case in ET.parse(path).iter("testcase"):
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        yield case, bad


def counts(path):
    per_file = collections.defaultdict(lambda: [0, 0, 0])
    for case, bad in cases(path):
        c = per_file[case.get("classname", "").split(".")[0]]
        if bad is not None:
            c[1] += 1
        elif case.find("skipped") is not None:
            c[2] += 1
        else:
            c[0] += 1
    for name, (p, f, s) in sorted(per_file.items()):
        print(f"{name}|{p}/{f}/{s}")
    print("all|%d/%d/%d" % tuple(sum(c[i] for c in per_file.values()) for i in range(3)))


def first_cause(bad):
    noise = ("Build on", "KeyError", "pyopencl._cl.", "(options:", "(source saved")
    lines = [l[1:].strip() for l in (bad.text or "").splitlines() if l.startswith("E ")]
    lines = [l for l in lines if l and not l.startswith(noise)]
    return (lines[0] if lines else (bad.get("message") or "?").splitlines()[0])[:240]


def outcomes(path):
    # test function (parameters dropped) -> None when every instance passed, else the first cause
    out = {}
    for case, bad in cases(path):
        name = case.get("classname", "") + "::" + case.get("name", "").split("[")[0]
        if bad is None:
            out.setdefault(name, None)
        elif out.get(name) is None:
            out[name] = first_cause(bad)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "counts":
        counts(sys.argv[2])
    elif sys.argv[1] == "tessera-only":
        tessera, pocl = outcomes(sys.argv[2]), outcomes(sys.argv[3])
        for name, cause in tessera.items():
            if cause is not None and name in pocl and pocl[name] is None:
                print(f"{name}: {cause}")
    else:
        sys.exit(__doc__)
