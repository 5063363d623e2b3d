#!/usr/bin/python3
# Build latency of real applications' OpenCL programs, on Tessera and on PoCL (issue 27 item 4):
#   basic     darktable's basic.cl (59 kernels): clBuildProgram, then time to first result (build +
#             clCreateKernel of invert_4f + one 256x256 launch + the read back)
#   clfft     clFFT (python3-gpyfft): one 1-D single-precision complex plan of 1024 points, baked
#             (its kernels built), then time to first result (plan + one forward transform)
#   match     OpenCV's transparent API (python3-opencv): cv2.matchTemplate on UMats
#             (TM_CCOEFF_NORMED, 512x512 image, 32x32 template), first call, which builds the
#             kernels it uses
# Each figure comes from a fresh process. "cold": empty caches (Tessera: an empty TESSERA_CACHE_DIR;
# PoCL: POCL_KERNEL_CACHE=0); "warm": a second process with the cache the cold one filled
# (Tessera's disk caches, PoCL's kernel cache in its own POCL_CACHE_DIR). pyopencl's and OpenCV's
# own binary caches are off, so the OpenCL implementation does the work.
#
# Usage: scripts/apps/build_latency.py [--build DIR] [--runs N] [--cases basic,clfft,match]
#                                      [--impls tessera,pocl]
# Needs darktable (for basic.cl), python3-pyopencl, python3-gpyfft, python3-opencv (Debian's, run
# with /usr/bin/python3); a case whose package is missing is skipped. Not part of ctest (it takes
# minutes and needs the applications). Figures: docs/performance.md, "Build latency".
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from targets import opencl_env

DT_KERNELS = "/usr/share/darktable/kernels"


def case_basic():
    import numpy as np
    import pyopencl as cl
    ctx = cl.Context(dev_type=cl.device_type.CPU)
    queue = cl.CommandQueue(ctx)
    src = open(os.path.join(DT_KERNELS, "basic.cl")).read()
    t1 = time.perf_counter()
    prg = cl.Program(ctx, src).build(options=["-cl-fast-relaxed-math", "-I", DT_KERNELS])
    t2 = time.perf_counter()
    k = cl.Kernel(prg, "invert_4f")
    t3 = time.perf_counter()
    n = 256
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    host = np.random.rand(n, n, 4).astype(np.float32)
    img_in = cl.Image(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, fmt, (n, n),
                      hostbuf=host)
    img_out = cl.Image(ctx, cl.mem_flags.WRITE_ONLY, fmt, (n, n))
    color = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR,
                      hostbuf=np.ones(4, np.float32))
    k.set_args(img_in, img_out, np.int32(n), np.int32(n), color, np.uint32(0), np.int32(0),
               np.int32(0))
    cl.enqueue_nd_range_kernel(queue, k, (n, n), None)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, img_out, origin=(0, 0), region=(n, n))
    queue.finish()
    t4 = time.perf_counter()
    ok = bool(np.allclose(out[..., :3], np.clip(1 - host[..., :3], 0, 1), atol=1e-6))
    return {"build_s": t2 - t1, "create_kernel_s": t3 - t2, "first_result_s": t4 - t1,
            "correct": ok, "kernels": len(prg.kernel_names.split(";"))}


def case_clfft():
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    from gpyfft.fft import FFT
    ctx = cl.Context(dev_type=cl.device_type.CPU)
    queue = cl.CommandQueue(ctx)
    n = 1024
    host = (np.random.rand(n) + 1j * np.random.rand(n)).astype(np.complex64)
    data = cla.to_device(queue, host)
    t1 = time.perf_counter()
    transform = FFT(ctx, queue, data, axes=(0,))  # creates and bakes the plan: builds its kernels
    t2 = time.perf_counter()
    (event,) = transform.enqueue()
    event.wait()
    out = data.get()
    t3 = time.perf_counter()
    ok = bool(np.allclose(out, np.fft.fft(host), rtol=1e-3, atol=1e-2))
    return {"build_s": t2 - t1, "first_result_s": t3 - t1, "correct": ok}


def case_match():
    import numpy as np
    import cv2
    cv2.ocl.setUseOpenCL(True)
    rng = np.random.default_rng(1)
    img = rng.integers(0, 255, (512, 512), dtype=np.uint8)
    tmpl = img[100:132, 200:232].copy()
    t1 = time.perf_counter()
    r = cv2.matchTemplate(cv2.UMat(img), cv2.UMat(tmpl), cv2.TM_CCOEFF_NORMED).get()
    t2 = time.perf_counter()
    ok = bool(cv2.ocl.useOpenCL()) and np.unravel_index(np.argmax(r), r.shape) == (100, 200)
    return {"first_result_s": t2 - t1, "correct": bool(ok), "opencl": bool(cv2.ocl.useOpenCL())}


CASES = {"basic": case_basic, "clfft": case_clfft, "match": case_match}


def environment(impl, build, cache_dir):
    env = opencl_env("tessera:" + build if impl == "tessera" else "pocl")
    env["OPENCV_OPENCL_DEVICE"] = ":CPU:"
    env["OPENCV_OPENCL_CACHE_ENABLE"] = "0"  # OpenCV's own binary cache would hide the build
    env["PYOPENCL_NO_CACHE"] = "1"
    env["TESSERA_CACHE_DIR" if impl == "tessera" else "POCL_CACHE_DIR"] = cache_dir
    return env


def run_case(case, impl, build, cache_dir, warm):
    env = environment(impl, build, cache_dir)
    if impl == "pocl" and not warm:
        env["POCL_KERNEL_CACHE"] = "0"
    p = subprocess.run([sys.executable, __file__, "--child", case], env=env, capture_output=True,
                       text=True, timeout=3600)
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout).strip().splitlines()[-1:] or ["exit"]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def available(case):
    if case == "basic" and not os.path.exists(os.path.join(DT_KERNELS, "basic.cl")):
        return False
    module = {"basic": "pyopencl", "clfft": "gpyfft", "match": "cv2"}[case]
    return subprocess.run([sys.executable, "-c", "import " + module],
                          capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--child")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "../../build"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--cases", default="basic,clfft,match")
    ap.add_argument("--impls", default="tessera,pocl")
    a = ap.parse_args()
    if a.child:
        print(json.dumps(CASES[a.child]()))
        return
    build = os.path.abspath(a.build)
    for case in a.cases.split(","):
        if not available(case):
            print(f"{case}: skipped (its application or Python module is not installed)")
            continue
        for impl in a.impls.split(","):
            for run in range(a.runs):
                with tempfile.TemporaryDirectory() as cache:
                    cold = run_case(case, impl, build, cache, False)
                    warm = run_case(case, impl, build, cache, True)
                print(f"{case:6} {impl:8} cold {json.dumps(cold)}")
                print(f"{case:6} {impl:8} warm {json.dumps(warm)}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
