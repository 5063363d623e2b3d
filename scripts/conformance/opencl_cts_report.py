#!/usr/bin/env python3
"""Writes the markdown table of an OpenCL-CTS run from what opencl_cts_run.py recorded
(<results>/<platform>/<binary>.json): per binary, each platform's passed/total and the rest by
status, then every sub-test that did not pass or skip, with the log line that most likely says why.
Used by opencl_cts.sh; it can be run again alone to rewrite the table."""
import argparse
import datetime
import json
import os
import platform as host
import re

LABELS = {"tessera": "Tessera", "pocl": "PoCL"}
ORDER = ["fail", "crash", "hang", "timeout", "notrun", "skip"]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return host.processor() or "unknown CPU"


def load(results, platform, name):
    path = os.path.join(results, platform, name + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def counts(run):
    c = {}
    for s in run["subtests"]:
        c[s["status"]] = c.get(s["status"], 0) + 1
    return c


def cell(run):
    if run is None:
        return "not run", ""
    c = counts(run)
    total = sum(c.values())
    rest = ", ".join("%d %s" % (c[k], k) for k in ORDER if c.get(k))
    return "%d/%d" % (c.get("pass", 0), total), rest


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--results", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--cts-version", default="unknown")
    p.add_argument("--binaries", required=True, help="opencl_cts.sh's table, one entry a line")
    args = p.parse_args()

    entries = [l.split("|") for l in args.binaries.splitlines() if l.strip()]
    platforms = [d for d in ("tessera", "pocl") if os.path.isdir(os.path.join(args.results, d))]
    platforms += sorted(d for d in os.listdir(args.results)
                        if os.path.isdir(os.path.join(args.results, d)) and d not in platforms)

    out = ["# OpenCL-CTS results", ""]
    out.append("CTS %s; table written %s; host: %s, %d CPUs (os.cpu_count)." %
               (args.cts_version, datetime.date.today().isoformat(), cpu_model(), os.cpu_count()))
    for pf in platforms:
        info = os.path.join(args.results, pf, "platform.txt")
        if os.path.exists(info):
            with open(info) as f:
                desc = "; ".join(re.sub(r"\s+", " ", l.split(None, 1)[-1]).strip()
                                 for l in f if l.strip())
            out.append("%s: %s." % (LABELS.get(pf, pf), desc))
    out.append("")
    head = "| binary | run as |"
    rule = "|---|---|"
    for pf in platforms:
        label = LABELS.get(pf, pf)
        head += " %s passed/total | %s not passed | %s s |" % (label, label, label)
        rule += "---|---|---|"
    out += [head, rule]
    totals = {pf: {} for pf in platforms}
    for name, _path, fixed, sel in entries:
        how = " ".join(x for x in (fixed.replace(os.path.dirname(fixed.split()[-1]) + "/", "")
                                   if fixed else "", sel) if x) or "all"
        row = "| %s | %s |" % (name, how.replace("|", "\\|"))
        for pf in platforms:
            run = load(args.results, pf, name)
            passed, rest = cell(run)
            secs = str(run["seconds"]) if run else ""
            row += " %s | %s | %s |" % (passed, rest, secs)
            if run:
                for k, v in counts(run).items():
                    totals[pf][k] = totals[pf].get(k, 0) + v
        out.append(row)
    row = "| **total** | |"
    for pf in platforms:
        t = totals[pf]
        row += " **%d/%d** | %s | |" % (t.get("pass", 0), sum(t.values()),
                                        ", ".join("%d %s" % (t[k], k) for k in ORDER if t.get(k)))
    out += [row, ""]

    for pf in platforms:
        out += ["## %s: sub-tests that did not pass (skips left out)" % LABELS.get(pf, pf), ""]
        for name, _path, _fixed, _sel in entries:
            run = load(args.results, pf, name)
            if not run:
                continue
            bad = [s for s in run["subtests"] if s["status"] not in ("pass", "skip")]
            if not bad:
                continue
            out.append("### %s" % name)
            for s in bad:
                hint = s["hint"].replace("|", "\\|").replace("`", "'")
                out.append("- %s: **%s** (log line %s) %s" % (s["name"], s["status"],
                                                           s["log_line"], hint))
            out.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
