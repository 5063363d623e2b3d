#!/usr/bin/env python3
"""The "Level Zero after 1.4" table of docs/api-coverage.md: every function of the public ze_api.h
(1.17) that Debian's 1.4 headers lack, from docs/api-coverage.ze-current.tsv, with its state in
the given libze_tessera (implemented when the library exports it).

Usage: api_coverage_current.py <api-coverage.ze-current.tsv> <libze_tessera.so> <out.md>
"""
import subprocess
import sys


def main():
    tsv, library, out = sys.argv[1:4]
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
        f.write("| function | since | state | notes |\n| --- | --- | --- | --- |\n")
        for name, version, state, note in rows:
            f.write("| `%s` | %s | %s | %s |\n" % (name, version, state, note.replace("|", "\\|")))


if __name__ == "__main__":
    main()
