#!/usr/bin/env python3
"""The "Level Zero after 1.4" table of docs/api-coverage.md: every function of the public ze_api.h
(1.17) that Debian's 1.4 headers lack, from docs/api-coverage.ze-current.tsv, with its state in
the given libze_tessera (implemented when the library exports it).

It also says through which version every core function is implemented, and fails when that is
not the version the driver reports (kApiVersion in level_zero/ze_driver_api.cpp): the version
claims the core API, extensions are reported one by one (zeDriverGetExtensionProperties).

Usage: api_coverage_current.py <api-coverage.ze-current.tsv> <libze_tessera.so> <out.md>
                               [<ze_driver_api.cpp>]
"""
import re
import subprocess
import sys

# Functions of an extension whose names carry no Ext/Exp suffix (ZE_experimental_bindless_image).
EXTENSION_FUNCTIONS_WITHOUT_SUFFIX = {"zeMemGetPitchFor2dImage"}


def is_core(name):
    return not re.search(r"(Ext|Exp)$", name) and name not in EXTENSION_FUNCTIONS_WITHOUT_SUFFIX


def version_key(version):
    return tuple(int(p) for p in version.split("."))


def complete_through(rows):
    """The highest version through which every core function is implemented, and the core
    functions of the next version that are not."""
    missing = sorted((version_key(v), n) for n, v, state, _ in rows
                     if v and is_core(n) and state != "implemented")
    versions = sorted({version_key(v) for _, v, _, _ in rows if v})
    complete = (1, 4)
    for v in versions:
        if missing and v >= missing[0][0]:
            break
        complete = v
    first = [n for v, n in missing if missing and v == missing[0][0]]
    return complete, first


def main():
    tsv, library, out = sys.argv[1:4]
    driver_source = sys.argv[4] if len(sys.argv) > 4 else None
    exported = set(subprocess.run(["nm", "-D", "--defined-only", "--format=just-symbols", library],
                                  check=True, capture_output=True, text=True).stdout.split())
    rows = []
    for line in open(tsv, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        name, version, note = (line.split("\t") + ["", ""])[:3]
        if name in exported:
            state = "refused" if note.startswith("refused") else "implemented"
        else:
            state = "not implemented"
        rows.append((name, version, state, note))
    done = sum(1 for r in rows if r[2] == "implemented")
    with open(out, "w", encoding="utf-8") as f:
        f.write("%d functions; %d implemented, %d refused with the header's error, %d not "
                "implemented (not exported: zeDriverGetExtensionFunctionAddress answers "
                "INVALID_ARGUMENT for the name, a current loader's table slot stays empty and the "
                "loader answers UNSUPPORTED_FEATURE).\n\n"
                % (len(rows), done, sum(1 for r in rows if r[2] == "refused"),
                   sum(1 for r in rows if r[2] == "not implemented")))
        complete, first = complete_through(rows)
        f.write("Every core function (no Ext or Exp suffix, not an extension's) through %d.%d is "
                "implemented, so zeDriverGetApiVersion reports %d.%d; the next version's core "
                "functions that are not: %s.\n\n"
                % (complete + complete + (", ".join("`%s`" % n for n in first) or "none",)))
        f.write("| function | since | state | notes |\n| --- | --- | --- | --- |\n")
        for name, version, state, note in rows:
            f.write("| `%s` | %s | %s | %s |\n" % (name, version, state, note.replace("|", "\\|")))
    if driver_source:
        found = re.search(r"kApiVersion\s*=\s*ZE_MAKE_VERSION\((\d+),\s*(\d+)\)",
                          open(driver_source, encoding="utf-8").read())
        reported = (int(found.group(1)), int(found.group(2))) if found else None
        if reported != complete:
            sys.exit("zeDriverGetApiVersion reports %s, but the core API is complete through "
                     "%d.%d (docs/api-coverage.ze-current.tsv, the library's exports)"
                     % (reported, *complete))


if __name__ == "__main__":
    main()
