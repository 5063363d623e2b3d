#!/usr/bin/python3
"""clFFT (python3-gpyfft) on OpenCL platforms, compared to numpy.fft (issue 27, item 7).

Run by hand (CI has no clFFT): Debian's python3-gpyfft and python3-pyopencl, /usr/bin/python3.

    scripts/apps/clfft_check.py                                  # Tessera (./build) and PoCL
    scripts/apps/clfft_check.py --target main=tessera:/work/main/build --target pocl=pocl
    scripts/apps/clfft_check.py --only 1000 --json out.json

Transforms: 1-D of 16, 1000, 1024 and 4096 points, 2-D of 64x64 and 100x60 (rows x columns,
C order, both axes transformed), complex64 and, where the device reports double precision
(CL_DEVICE_DOUBLE_FP_CONFIG non-zero), complex128; each forward and inverse (clFFT scales the
inverse by 1/N by default, as numpy.fft.ifft does), out of place, on random input with a fixed
seed. Error: max |clFFT - numpy| / max |numpy| (numpy computes in double precision, so it is the
reference for both precisions); bound 1e-4 for complex64, 1e-10 for complex128.

Each transform (a size and a precision, forward then inverse) runs in a child process of its
own, so a fault, an abort or a hang ends that case only. Statuses: ok, mismatch, error (an
exception from pyopencl or clFFT), lost (Tessera reported the context lost: a kernel faulted),
crash (the child died by a signal or aborted), timeout, n/a (no fp64). The plan column is the
seconds clFFT spent baking the forward plan (it compiles its kernels there; the inverse plan of
the same shape reuses them within the process); the caches of the
implementations are the caller's business (TESSERA_CACHE=0, PYOPENCL_NO_CACHE=1 to measure
builds, CLFFT_CACHE_PATH unset).
"""
import argparse
import json
import os
import subprocess
import sys
import time

from targets import opencl_env


SHAPES = [(16,), (1000,), (1024,), (4096,), (64, 64), (100, 60)]
DTYPES = ["complex64", "complex128"]
BOUND = {"complex64": 1e-4, "complex128": 1e-10}


def case_name(shape, dtype):
    return "%s %s" % ("x".join(str(s) for s in shape), dtype)


def run_child(shape, dtype):
    """One transform, forward and inverse: prints one RESULT line per direction."""
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    from gpyfft.fft import FFT

    plats = cl.get_platforms()
    dev = plats[0].get_devices()[0]
    info = {"platform": plats[0].name, "device": dev.name.strip()}
    if dtype == "complex128" and not dev.double_fp_config:
        for direction in ("forward", "inverse"):
            print("RESULT " + json.dumps(dict(info, direction=direction, status="n/a",
                                              detail="no fp64")), flush=True)
        return
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(27)
    x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    axes = tuple(range(len(shape)))
    for direction in ("forward", "inverse"):
        forward = direction == "forward"
        src = cla.to_device(queue, x)
        dst = cla.zeros_like(src)
        t0 = time.time()
        fft = FFT(ctx, queue, src, dst, axes=axes)
        plan_s = time.time() - t0
        t0 = time.time()
        ev, = fft.enqueue(forward=forward)
        ev.wait()
        run_s = time.time() - t0
        got = dst.get()
        xd = x.astype(np.complex128)
        ref = np.fft.fftn(xd, axes=axes) if forward else np.fft.ifftn(xd, axes=axes)
        err = float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))
        bad = not np.isfinite(got).all() or not err <= BOUND[dtype]
        print("RESULT " + json.dumps(dict(info, direction=direction,
                                          status="mismatch" if bad else "ok", err=err,
                                          plan_s=plan_s, run_s=run_s)), flush=True)


def classify(rc, out, err, timed_out):
    got = {}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[len("RESULT "):])
            got[r["direction"]] = r
    if "its context is lost" in err:
        what = {"status": "lost"}
    elif timed_out:
        what = {"status": "timeout"}
    elif rc < 0:
        what = {"status": "crash", "detail": "signal %d" % -rc}
    elif rc == 134:
        what = {"status": "crash", "detail": "abort"}
    elif rc != 0:
        tail = [l for l in err.strip().splitlines() if l.strip()][-1:]
        what = {"status": "error", "detail": " ".join(tail)[:300]}
    else:
        what = {"status": "error", "detail": "no result"}
    res = {}
    for d in ("forward", "inverse"):
        if d in got and not (what["status"] == "lost" and got[d]["status"] != "ok"):
            res[d] = got[d]
        else:
            res[d] = dict(what)
    return res


def cell(r):
    s = r.get("status", "?")
    if "err" in r:
        s += " %.1e" % r["err"]
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", action="append", default=[],
                    help="NAME=SPEC; SPEC is pocl, tessera, tessera:<build dir> or an .icd path "
                         "(default: tessera=tessera pocl=pocl)")
    ap.add_argument("--only", action="append", default=[],
                    help="run the cases whose name contains this text (repeatable)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per case")
    ap.add_argument("--json", help="write every result to this file")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child:
        run_child(tuple(int(s) for s in args.child[0].split("x")), args.child[1])
        return 0

    sel = [(s, d) for d in DTYPES for s in SHAPES
           if not args.only or any(o in case_name(s, d) for o in args.only)]
    targets = []
    for t in args.target or ["tessera=tessera", "pocl=pocl"]:
        name, _, spec = t.partition("=")
        targets.append((name, spec or name))
    results = {}
    where = {}
    for tname, spec in targets:
        env = opencl_env(spec)
        for shape, dtype in sel:
            t0 = time.time()
            try:
                p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child",
                                    "x".join(str(s) for s in shape), dtype],
                                   env=env, capture_output=True, text=True,
                                   timeout=args.timeout)
                res = classify(p.returncode, p.stdout, p.stderr, False)
            except subprocess.TimeoutExpired as e:
                out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                res = classify(0, out, "", True)
            for d, r in res.items():
                results[(tname, case_name(shape, dtype), d)] = r
                if r.get("platform"):
                    where[tname] = "%s / %s" % (r["platform"], r["device"])
            sys.stderr.write("[%s] %-18s %s (%.0f s)\n" % (
                tname, case_name(shape, dtype),
                " ".join("%s:%s" % (d, cell(r)) for d, r in res.items()), time.time() - t0))
            sys.stderr.flush()
            if args.json:
                with open(args.json, "w") as f:
                    json.dump([{"target": k[0], "case": k[1], "direction": k[2], **v}
                               for k, v in results.items()], f, indent=1)

    names = [t[0] for t in targets]
    print("| transform | " + " | ".join(
        "%s forward | %s inverse | %s plan s" % (n, n, n) for n in names) + " |")
    print("|" + "---|" * (1 + 3 * len(names)))
    summary = {n: {} for n in names}
    for shape, dtype in sel:
        row = "| %s |" % case_name(shape, dtype)
        for n in names:
            fw = results[(n, case_name(shape, dtype), "forward")]
            inv = results[(n, case_name(shape, dtype), "inverse")]
            row += " %s | %s | %s |" % (cell(fw), cell(inv),
                                        "%.1f" % fw["plan_s"] if "plan_s" in fw else "")
            for r in (fw, inv):
                summary[n][r["status"]] = summary[n].get(r["status"], 0) + 1
        print(row)
    print()
    for n in names:
        print("%s: %s (%s)" % (n, ", ".join("%s %d" % kv for kv in sorted(summary[n].items())),
                               where.get(n, "?")))
        for (tn, c, d), r in results.items():
            if tn == n and r.get("detail") and r["status"] != "n/a":
                print("  %s %s: %s" % (c, d, r["detail"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
