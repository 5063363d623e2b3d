#!/usr/bin/python3
"""OpenCV's own OpenCL kernels timed on Tessera and PoCL, alternating (issue 29's OpenCV rows).

Run by hand (CI has no OpenCV): Debian's python3-opencv, /usr/bin/python3.

    scripts/apps/opencv_speed.py                      # Tessera (./build) and PoCL, 5 rounds
    scripts/apps/opencv_speed.py --rounds 3 --target main=tessera:/work/main/build --target pocl
    scripts/apps/opencv_speed.py --target tessera --target pocl --target widen0=tessera+TESSERA_WIDEN=0

Each round runs every target once, in a child process of its own (OpenCV binds its OpenCL device
at start): the child builds the kernels with an untimed call, then times `--repeat` calls of each
operation on a 4096x4096 8-bit image (float for the Gaussian, 2048x2048 8UC4 where named) through cv2.UMat, each ended by
cv2.ocl.finish(), and prints the median. The result is checked against OpenCV's CPU path (8-bit
within 1, float within 1e-4 relative); a case that does not match prints "mismatch", one that
launched no OpenCL kernel cannot be told apart here (opencv_battery.py does that). The report is
the median over the rounds of each target's medians, and for each target after the first the median
of the rounds' ratios of its time to the first's (above 1: the first is faster). A widen0 target
(TESSERA_WIDEN=0) shows where the widening loses to the unwidened code.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from targets import opencl_env

OPS = {
    "morphologyEx OPEN ellipse 7x7": "morph",
    "morphologyEx OPEN ellipse 7x7, 8UC4 2048^2": "morph4",
    "medianBlur 5": "median",
    "GaussianBlur 7x7 float": "gauss",
    "erode rect 3x3": "erode",
    "boxFilter 5x5": "box",
}


def child(repeat):
    import cv2
    import numpy as np
    cv2.ocl.setUseOpenCL(True)
    rng = np.random.default_rng(7)
    img8 = rng.integers(0, 256, (4096, 4096), dtype=np.uint8)
    img84 = rng.integers(0, 256, (2048, 2048, 4), dtype=np.uint8)
    imgf = rng.random((4096, 4096), dtype=np.float32)
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    fns = {
        "morph": (img8, lambda s: cv2.morphologyEx(s, cv2.MORPH_OPEN, ellipse)),
        "morph4": (img84, lambda s: cv2.morphologyEx(s, cv2.MORPH_OPEN, ellipse)),
        "median": (img8, lambda s: cv2.medianBlur(s, 5)),
        "gauss": (imgf, lambda s: cv2.GaussianBlur(s, (7, 7), 2.0)),
        "erode": (img8, lambda s: cv2.erode(s, np.ones((3, 3), np.uint8))),
        "box": (img8, lambda s: cv2.boxFilter(s, -1, (5, 5))),
    }
    out = {}
    for name, key in OPS.items():
        src, fn = fns[key]
        u = cv2.UMat(src)
        res = fn(u).get()  # builds the kernels
        cv2.ocl.finish()
        cv2.ocl.setUseOpenCL(False)
        ref = fn(src)
        cv2.ocl.setUseOpenCL(True)
        diff = np.abs(res.astype(np.float64) - ref.astype(np.float64))
        ok = diff.max() <= (1 if src.dtype == np.uint8 else 1e-4 * max(1.0, np.abs(ref).max()))
        ts = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            r = fn(u)
            cv2.ocl.finish()
            ts.append(time.perf_counter() - t0)
            del r
        out[name] = {"ms": statistics.median(ts) * 1e3, "ok": bool(ok)}
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", action="append", default=[],
                    help="name=spec or spec (tessera, tessera:<build>, pocl, an .icd)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.repeat)
    targets = [t.split("=", 1) if "=" in t else (t, t) for t in (a.target or ["tessera", "pocl"])]
    runs = {name: [] for name, _ in targets}
    for r in range(a.rounds):
        for name, spec in targets:
            env = opencl_env(spec)
            env.update(OPENCV_OPENCL_DEVICE=":CPU:", OPENCV_OPENCL_CACHE_ENABLE="0")
            p = subprocess.run([sys.executable, __file__, "--child", "--repeat", str(a.repeat)],
                               env=env, capture_output=True, text=True, timeout=3600)
            if p.returncode != 0:
                print(f"round {r} {name}: exit {p.returncode}\n{p.stderr[-2000:]}")
                continue
            runs[name].append(json.loads(p.stdout.strip().splitlines()[-1]))
    names = [n for n, _ in targets]
    print("| operation | " + " | ".join(f"{n} ms" for n in names) +
          "".join(f" | {n} / {names[0]}" for n in names[1:]) + " |")
    print("|---" * (2 * len(names)) + "|")
    for op in OPS:
        cells = []
        for n in names:
            ms = [x[op]["ms"] for x in runs[n] if op in x]
            bad = sum(1 for x in runs[n] if op in x and not x[op]["ok"])
            cells.append(f"{statistics.median(ms):.1f}" + (" (mismatch)" if bad else "")
                         if ms else "-")
        row = f"| {op} | " + " | ".join(cells)
        for other in names[1:]:
            ratios = [b[op]["ms"] / a_[op]["ms"] for a_, b in zip(runs[names[0]], runs[other])
                      if op in a_ and op in b]
            row += f" | {statistics.median(ratios):.2f}x" if ratios else " | -"
        print(row + " |")


if __name__ == "__main__":
    main()
