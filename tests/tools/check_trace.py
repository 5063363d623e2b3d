#!/usr/bin/env python3
"""Runs a program with TESSERA_TRACE set, then checks the Chrome/Perfetto trace it wrote.

Usage: check_trace.py TRACE.json KERNEL [--flows] [--workers] [--bounded N] -- PROGRAM ARGS...
Checks: a traceEvents list of known phases; a process name; a track named after a queue; a span
named KERNEL with group counts on a queue's track; every span with a name, a non-negative duration
and args; every flow end ("f") after a start ("s") of the same id; with --flows at least one matched
pair; with --workers a worker thread's track and spans on it. With --bounded N (the program runs
with TESSERA_TRACE_EVENTS=N) only that the file is valid, holds at most N records and counts the rest
as dropped. Prints a summary of the counts."""
import collections
import json
import os
import subprocess
import sys


def main():
    sep = sys.argv.index("--")
    path, kernel = sys.argv[1], sys.argv[2]
    want_flows = "--flows" in sys.argv[3:sep]
    want_workers = "--workers" in sys.argv[3:sep]
    command = sys.argv[sep + 1:]
    if os.path.exists(path):
        os.remove(path)
    env = dict(os.environ, TESSERA_TRACE=path)
    options = sys.argv[3:sep]
    bounded = int(options[options.index("--bounded") + 1]) if "--bounded" in options else None
    if bounded:
        env["TESSERA_TRACE_EVENTS"] = str(bounded)
    run = subprocess.run(command, env=env)
    assert run.returncode == 0, f"{command} failed: {run.returncode}"

    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    assert isinstance(events, list) and events, "no traceEvents"
    phases = collections.Counter(e["ph"] for e in events)
    assert set(phases) <= {"M", "X", "i", "s", "f"}, phases
    for e in events:
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int), e
    if bounded:
        other = trace["otherData"]
        records = [e for e in events if e["ph"] != "M"]
        assert len(records) <= bounded and other["capacity"] == bounded, other
        assert other["dropped"] > 0 and other["recorded"] == len(records), other
        print(f"bounded trace ok: {len(records)} records kept, {other['dropped']} dropped")
        return
    meta = [e for e in events if e["ph"] == "M"]
    assert any(e["name"] == "process_name" for e in meta), "no process name"
    tracks = {e["tid"]: e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    assert any(n.startswith("queue ") for n in tracks.values()), f"no queue track: {tracks}"
    if want_workers:
        assert any(n.startswith("worker ") for n in tracks.values()), f"no worker track: {tracks}"

    spans = [e for e in events if e["ph"] == "X"]
    for e in spans:
        assert e["name"] and e["dur"] >= 0 and isinstance(e["args"], dict), e
        assert e["cat"] in ("command", "worker", "host", "balance"), e
    launches = [e for e in spans if e["name"] == kernel and e["cat"] == "command"]
    assert launches, f"no span of kernel {kernel}"
    assert all(len(e["args"]["groups"]) == 3 for e in launches), launches
    queue_tids = {t for t, n in tracks.items() if n.startswith("queue ")}
    assert any(e["tid"] in queue_tids for e in launches), "kernel spans are not on a queue track"
    workers = [e for e in spans if e["cat"] == "worker"]
    worker_tids = {t for t, n in tracks.items() if n.startswith("worker ")}
    if want_workers:
        assert any(e["tid"] in worker_tids for e in workers), "no spans on a worker track"
        # Each parallel job's balance (issue 20): on the track of the thread that ran the command.
        balances = [e for e in spans if e["cat"] == "balance"]
        assert balances, "no balance spans"
        for b in balances:
            a = b["args"]
            assert a["workers"] >= 1 and a["busy_min_ns"] <= a["busy_max_ns"], b
            assert a["tail_ns"] <= b["dur"] * 1000 + 1000, b

    starts = collections.Counter()
    matched = 0
    for e in sorted((e for e in events if e["ph"] in "sf"), key=lambda e: (e["ts"], e["ph"] != "s")):
        if e["ph"] == "s":
            starts[e["id"]] += 1
        else:
            assert starts[e["id"]] > 0, f"flow end without start: {e}"
            matched += 1
    if want_flows:
        assert matched > 0, "no flow arrows"
    markers = [e for e in events if e["ph"] == "i"]
    assert trace["otherData"]["dropped"] == 0, trace["otherData"]
    print(f"trace ok: {len(events)} events: {dict(phases)}; tracks {sorted(tracks.values())}; "
          f"{len(launches)} '{kernel}' spans, {len(workers)} worker spans, {matched} flows, "
          f"{len(markers)} markers")


if __name__ == "__main__":
    main()
