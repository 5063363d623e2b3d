#!/usr/bin/env python3
"""Runs one OpenCL-CTS binary against the OpenCL platform of the current environment, and records
one status per sub-test; used by opencl_cts.sh (read that first).

  opencl_cts_run.py run --name N --binary PATH --out DIR [--arg A]... [--select PATTERN]...
                        [--budget S] [--idle S]

A sub-test is one harness test ("fpmath_float", "acos", ...); for test_conversions, whose harness
has a single test, one conversion ("convert_charn_sat_rte( floatn )"). The binary runs in a process
group of its own, with a watchdog: a process that prints nothing for --idle seconds is a hang, and
--budget caps the whole binary. When the process dies (signal, hang) with sub-tests left, the
sub-test in progress is recorded as crashed/hung and the binary is started again on the sub-tests
after it, so one crash does not hide the rest. Writes DIR/N.log (every run's output) and DIR/N.json:
  {"name", "binary", "args", "seconds", "runs": [{"argv", "exit", "seconds"}],
   "subtests": [{"name", "status", "hint", "log_line"}]}
with status one of pass, fail, skip, crash, hang, timeout, notrun.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ERROR_HINT = re.compile(
    r"error|fail|mismatch|invalid|unsupported|not supported|expected|unable|wrong|incorrect|"
    r"abort|assert|undefined|unresolved|verification|ulp",
    re.IGNORECASE)


def list_mode(name):
    """How the binary lists its sub-tests: the harness's -list, or the suite's own flag."""
    if name == "test_bruteforce":
        return "-p"  # math_brute_force's ParseArgs would read -list as flags
    if name == "test_printf":
        return "-h"  # printf's main reads every '-' argument itself; -h prints its test names
    return "-list"


def list_subtests(name, binary, fixed_args, env):
    out = subprocess.run([binary, list_mode(name)] + fixed_args, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, timeout=120, check=False).stdout
    names = []
    for line in out.decode("utf-8", "replace").splitlines():
        m = re.fullmatch(r"\t([A-Za-z0-9_]+)", line.rstrip())
        if m:
            names.append(m.group(1))
    return names


def select(names, patterns):
    """The harness's own matching: exact names, or a prefix ending with '*'."""
    if not patterns:
        return list(names)
    chosen = []
    for n in names:
        for p in patterns:
            if (p.endswith("*") and n.startswith(p[:-1])) or n == p:
                chosen.append(n)
                break
    return chosen


def signal_name(code):
    try:
        return signal.Signals(-code).name
    except ValueError:
        return "signal %d" % -code


START = re.compile(r"^([A-Za-z0-9_]+)\.\.\.$|^\d+\) Testing (convert_.*\)):$")
started = {}  # sub-test (or conversion) name -> time its start line appeared


def run_once(argv, env, log_path, deadline, idle):
    """Runs argv with its output appended to log_path; returns (outcome, exit code, first log
    line of this run). outcome: 'exit', 'signal', 'hang' or 'timeout'. Records in `started` when
    each sub-test's start line appeared."""
    with open(log_path, "ab") as log:
        log.write(("\n==== opencl_cts_run: %s\n" % " ".join(argv)).encode())
        log.flush()
        first_line = sum(1 for _ in open(log_path, "rb")) + 1
        start = time.time()
        # Line-buffered stdout (stdbuf, glibc's stdio) so that the driver's own messages on
        # stderr land beside the sub-test output they belong to.
        cmd = (["stdbuf", "-oL", "-eL"] if shutil.which("stdbuf") else []) + argv
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        last_size, last_change = os.path.getsize(log_path), time.time()
        outcome = None
        pending = b""
        while proc.poll() is None:
            time.sleep(1)
            size = os.path.getsize(log_path)
            now = time.time()
            if size != last_size:
                with open(log_path, "rb") as f:
                    f.seek(last_size)
                    pending += f.read(size - last_size)
                *done, pending = pending.split(b"\n")
                for line in done:  # when each sub-test started, to the second
                    m = START.match(line.decode("utf-8", "replace").rstrip())
                    if m:
                        started.setdefault(m.group(1) or m.group(2), now)
                last_size, last_change = size, now
            if now - last_change > idle:
                outcome = "hang"
            elif now > deadline:
                outcome = "timeout"
            if outcome:
                os.killpg(proc.pid, signal.SIGKILL)  # the group this run started, nothing else
                proc.wait()
                break
        code = proc.returncode
        log.write(("\n==== opencl_cts_run: %s after %.0f s, exit %s\n" %
                   (outcome or "done", time.time() - start, code)).encode())
    if outcome is None:
        outcome = "signal" if code < 0 else "exit"
    return outcome, code, first_line


def read_lines(log_path, first_line):
    with open(log_path, "rb") as f:
        lines = f.read().decode("utf-8", "replace").splitlines()
    return lines[first_line - 1:], first_line


def hint_of(lines, name):
    """The line that most likely says why: the compiler's log after a failed build, else the first
    line that reads like an error."""
    for i, line in enumerate(lines):
        if line.startswith("Build log for device"):
            for after in lines[i + 1:i + 40]:
                s = after.strip()
                if s and not s.startswith("-----") and not s.startswith("warning"):
                    return ("build log: " + s)[:240]
    for line in lines:
        s = line.strip()
        if not s or s in (name + " FAILED", name + "...") or s.startswith("===="):
            continue
        if ERROR_HINT.search(s):
            return s[:240]
    return ""


def parse_harness(lines, first_line, names):
    """Statuses of the harness's sub-tests in one run's output: {name: [status, start index]},
    and the sub-test started but not finished, if any."""
    known = set(names)
    status, current, start = {}, None, 0
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if line.endswith("...") and line[:-3] in known:
            current, start = line[:-3], i
            status[current] = [None, i]
            continue
        for n in ([current] if current else []):
            if line == n + " passed":
                status[n][0] = "pass"
            elif line == n + " FAILED":
                status[n][0] = "fail"
            elif line in (n + " test not supported", n + " test currently not implemented") or \
                    line.startswith(n + " skipped (requires") or \
                    line.startswith("Subtest %s tests is not supported" % n):
                status[n][0] = "skip"
            if status[n][0]:
                current = None
    # A test that the version check skipped prints no "name..." line.
    for raw in lines:
        m = re.match(r"(\S+) skipped \(requires", raw)
        if m and m.group(1) in known and m.group(1) not in status:
            status[m.group(1)] = ["skip", 0]
    return status, current


def run_harness(args, env, log_path, deadline):
    names = select(list_subtests(args.name, args.binary, args.arg, env), args.select)
    if not names:
        return [dict(name="(listing)", status="crash", hint="the binary listed no sub-tests",
                     log_line=0)], []
    results, runs, remaining = {}, [], list(names)
    json_path = log_path[:-4] + ".results.json"
    while remaining:
        if time.time() >= deadline:
            for n in remaining:
                results[n] = dict(name=n, status="notrun", hint="binary time budget spent",
                                  log_line=0)
            break
        if os.path.exists(json_path):
            os.remove(json_path)
        argv = [args.binary] + args.arg + (remaining if remaining != names or args.select else [])
        env["CL_CONFORMANCE_RESULTS_FILENAME"] = json_path
        t0 = time.time()
        outcome, code, first = run_once(argv, env, log_path, deadline, args.idle)
        runs.append(dict(argv=argv[1:], exit=code, outcome=outcome, seconds=round(time.time() - t0)))
        lines, first = read_lines(log_path, first)
        status, current = parse_harness(lines, first, remaining)
        reported = {}
        if outcome == "exit" and os.path.exists(json_path):
            with open(json_path) as f:
                reported = {k: {"pass": "pass", "fail": "fail", "skip": "skip"}[v]
                            for k, v in json.load(f)["results"].items()}
        for n in remaining:
            st, at = status.get(n, [None, None])
            final = reported.get(n, st)
            if final is None:
                continue
            seg = lines[at:] if at is not None else []
            end = next((j for j, l in enumerate(seg[1:], 1) if l.rstrip().endswith("...") and
                        l.rstrip()[:-3] in status), len(seg))
            results[n] = dict(name=n, status=final, log_line=first + (at or 0),
                              hint=hint_of(seg[:end], n) if final == "fail" else "")
        if outcome == "exit":
            for n in remaining:  # selected but never reported: the harness stopped early
                results.setdefault(n, dict(name=n, status="fail", log_line=first,
                                           hint="no result (exit %s): %s" % (code, hint_of(lines, n))))
            break
        cause = {"signal": signal_name(code), "hang": "no output for %d s" % args.idle,
                 "timeout": "binary time budget spent"}[outcome]
        kind = {"signal": "crash", "hang": "hang", "timeout": "timeout"}[outcome]
        if current is None:
            # Died outside any sub-test (start-up, or after the last one): the ones left are lost.
            for n in remaining:
                if n not in results:
                    results[n] = dict(name=n, status=kind, log_line=first,
                                      hint="%s outside a sub-test; last line: %s" %
                                      (cause, (lines[-1] if lines else "")[:200]))
            break
        seg = lines[status[current][1]:]
        tail = [l for l in seg if l.strip() and not l.startswith("====")]
        results[current] = dict(name=current, status=kind, log_line=first + status[current][1],
                                hint="%s; last line: %s" % (cause, (tail[-1] if tail else "")[:200]))
        remaining = [n for n in remaining[remaining.index(current) + 1:] if n not in results]
    return [results[n] for n in names if n in results], runs


CONV_START = re.compile(r"^(\d+)\) Testing (convert_.*\)):")
CONV_FAIL = re.compile(r"\*\*\* (?:(\d+)\) )?(convert_.*\)) FAILED")


def run_conversions(args, env, log_path, deadline):
    """test_conversions numbers its conversions; a run resumes at the number after a crash."""
    results, runs, start_number = {}, [], None
    while True:
        if time.time() >= deadline:
            results["(rest)"] = dict(name="(conversions after %s)" % start_number, status="notrun",
                                     hint="binary time budget spent", log_line=0)
            break
        argv = [args.binary] + args.arg + ([str(start_number)] if start_number is not None else [])
        t0 = time.time()
        outcome, code, first = run_once(argv, env, log_path, deadline, args.idle)
        runs.append(dict(argv=argv[1:], exit=code, outcome=outcome, seconds=round(time.time() - t0)))
        lines, first = read_lines(log_path, first)
        current, number, at = None, None, 0
        for i, raw in enumerate(lines):
            m = CONV_START.match(raw)
            if m:
                number, current, at = int(m.group(1)), m.group(2), i
                results[current] = dict(name=current, status=None, log_line=first + i, hint="")
                continue
            if current is None:
                continue
            f = CONV_FAIL.search(raw)
            if f and f.group(2) == current:
                results[current].update(status="fail", hint=hint_of(lines[at:i], current))
                current = None
            elif "Wimp pass" in raw or raw.strip().startswith("passed"):
                results[current]["status"] = "pass"
                current = None
        if outcome == "exit":
            for r in results.values():
                if r["status"] is None:
                    r.update(status="fail", hint="no result (exit %s)" % code)
            if code != 0 and not any(r["status"] == "fail" for r in results.values()):
                results["(harness)"] = dict(name="(harness)", status="fail", log_line=first,
                                            hint="exit %s: %s" % (code, hint_of(lines, "")))
            break
        cause = {"signal": signal_name(code), "hang": "no output for %d s" % args.idle,
                 "timeout": "binary time budget spent"}[outcome]
        kind = {"signal": "crash", "hang": "hang", "timeout": "timeout"}[outcome]
        if current is None:
            results["(run %d)" % len(runs)] = dict(name="(outside a conversion)", status=kind,
                                                   log_line=first, hint=cause)
            break
        tail = [l for l in lines[at:] if l.strip() and not l.startswith("====")]
        results[current].update(status=kind, hint="%s; last line: %s" % (cause, tail[-1][:200]))
        start_number = number + 1
    return [r for r in results.values() if r["status"]], runs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["run"])
    p.add_argument("--name", required=True)
    p.add_argument("--binary", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--arg", action="append", default=[])
    p.add_argument("--select", action="append", default=[])
    p.add_argument("--budget", type=int, default=900)
    p.add_argument("--idle", type=int, default=300)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, args.name + ".log")
    open(log_path, "wb").close()
    env = dict(os.environ)
    t0 = time.time()
    deadline = t0 + args.budget
    runner = run_conversions if args.name == "test_conversions" else run_harness
    subtests, runs = runner(args, env, log_path, deadline)
    # Seconds per sub-test: from its start line to the next one's (to the end for the last).
    order = sorted(started.items(), key=lambda kv: kv[1])
    ends = [t for _, t in order[1:]] + [time.time()]
    seconds = {n: round(e - t) for (n, t), e in zip(order, ends)}
    for s in subtests:
        if s["name"] in seconds:
            s["seconds"] = seconds[s["name"]]
    summary = dict(name=args.name, binary=args.binary, args=args.arg, select=args.select,
                   seconds=round(time.time() - t0), runs=runs, subtests=subtests)
    with open(os.path.join(args.out, args.name + ".json"), "w") as f:
        json.dump(summary, f, indent=1)
    counts = {}
    for s in subtests:
        counts[s["status"]] = counts.get(s["status"], 0) + 1
    print("%s: %s in %d s" % (args.name, ", ".join("%d %s" % (v, k) for k, v in
                                                 sorted(counts.items())), summary["seconds"]))


if __name__ == "__main__":
    sys.exit(main())
