#!/usr/bin/python3
"""OpenCV's transparent API (cv2.UMat) on OpenCL platforms, compared to OpenCV's own CPU path.

Run by hand (CI has no OpenCV): Debian's python3-opencv, /usr/bin/python3.

    scripts/apps/opencv_battery.py                               # Tessera (./build) and PoCL
    scripts/apps/opencv_battery.py --target main=tessera:/work/main/build --target pocl=pocl
    scripts/apps/opencv_battery.py --only cvtColor --details    # a subset, with kernel names

Each case (an operation on one image type) runs in a child process of its own, so a fault, an
abort or a hang ends that case only. The child runs the operation on random images of several
sizes (odd widths included) twice: with cv2.ocl.setUseOpenCL(False) on a numpy array (OpenCV's
CPU path, the reference) and with setUseOpenCL(True) on a cv2.UMat, and compares:
8-bit results within 1, float results within a relative tolerance per operation (1e-5 unless
the operation's row says otherwise), a few operations by the fraction of differing pixels.

Whether OpenCL really ran: OpenCV falls back to its CPU path silently when a kernel does not
build or an operation has no OpenCL path for those arguments. The children load OpenCV's OpenCL
runtime through scripts/apps/cl_call_log.c (built here with cc when present, via
OPENCV_OPENCL_RUNTIME), which logs every kernel launch with its name and the platform's name:
a case whose UMat run launched no kernel is "cpu" (no OpenCL), not "ok".

Statuses: ok, mismatch (max abs difference and the tolerance), error (an exception from OpenCV),
lost (the context was lost: a kernel faulted), crash (the child died by a signal or aborted),
timeout, cpu (no OpenCL kernel ran).  Times: median of a few runs on the largest size, the UMat
run including cv2.ocl.finish(); the CPU column is OpenCV's CPU path in the same child.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from targets import opencl_env

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [(64, 64), (97, 131), (601, 803)]

# ----------------------------------------------------------------------------------------------
# The operations. Each case: (name, types, fn, options). fn(src, aux) -> result (a Mat/UMat,
# a number or a tuple of them); aux holds extra inputs made per size (the same for both runs).
# options: tol (relative, float), tol8 (absolute, integer results), similar (fraction of
# pixels allowed to differ by more than tol8), gen (input generator name), aux (aux maker).
# ----------------------------------------------------------------------------------------------


# --quick: the operations the issue names, up to three image types each (about 50 children per
# platform instead of 124; each child pays OpenCV's start and its kernels' builds).
QUICK = ["cvtColor BGR2GRAY", "cvtColor BGR2HSV", "cvtColor BGR2Lab", "cvtColor BGR2YUV",
         "cvtColor HSV2BGR", "cvtColor YUV2BGR", "boxFilter 3x3", "blur 7x7", "GaussianBlur 5x5",
         "filter2D 3x3", "filter2D 5x5", "Sobel dx", "Laplacian 3", "medianBlur 3",
         "medianBlur 5", "erode rect3", "dilate ellipse5", "morphologyEx OPEN",
         "morphologyEx GRADIENT", "resize x0.5 LINEAR", "resize x0.5 CUBIC", "resize x0.5 AREA",
         "resize x1.7 LINEAR", "warpAffine LINEAR", "warpPerspective LINEAR", "remap LINEAR",
         "threshold BINARY", "threshold TRUNC", "matchTemplate SQDIFF",
         "matchTemplate CCORR_NORMED", "matchTemplate CCOEFF_NORMED", "dft", "idft scaled",
         "integral", "equalizeHist", "add", "multiply 0.5", "absdiff", "norm L2", "mean",
         "minMaxLoc", "transpose", "flip 1", "flip -1", "Canny", "exp", "pow 2.5"]
QUICK_TYPES = ["8UC1", "8UC3", "8UC4", "32FC1", "32FC3", "32FC2"]


def cases(cv2, np):
    C = []

    def add(name, types, fn, **opt):
        for t in types:
            C.append((name, t, fn, opt))

    U8_134 = ["8UC1", "8UC3", "8UC4"]
    F_13 = ["32FC1", "32FC3"]
    ALL = U8_134 + F_13

    cvt = [("BGR2GRAY", ["8UC3", "32FC3"], {}), ("BGRA2GRAY", ["8UC4"], {}),
           ("GRAY2BGR", ["8UC1", "32FC1"], {}), ("BGR2BGRA", ["8UC3"], {}),
           ("BGR2RGB", ["8UC3", "32FC3"], {}),
           ("BGR2HSV", ["8UC3", "32FC3"], {"tol": 1e-4}), ("BGR2HSV_FULL", ["8UC3"], {}),
           ("BGR2HLS", ["8UC3", "32FC3"], {"tol": 1e-4}),
           ("BGR2Lab", ["8UC3", "32FC3"], {"tol": 1e-3}),
           ("BGR2Luv", ["8UC3", "32FC3"], {"tol": 1e-3}),
           ("BGR2YUV", ["8UC3", "32FC3"], {}), ("BGR2YCrCb", ["8UC3", "32FC3"], {}),
           ("BGR2XYZ", ["8UC3", "32FC3"], {}),
           ("HSV2BGR", ["8UC3", "32FC3"], {"gen": "hsv", "tol": 1e-4}),
           ("HLS2BGR", ["8UC3", "32FC3"], {"gen": "hsv", "tol": 1e-4}),
           ("Lab2BGR", ["8UC3", "32FC3"], {"gen": "lab", "tol": 1e-3}),
           ("YUV2BGR", ["8UC3", "32FC3"], {}), ("XYZ2BGR", ["8UC3", "32FC3"], {}),
           ("YUV2BGR_NV12", ["8UC1"], {"gen": "nv12"})]
    for code, types, opt in cvt:
        c = getattr(cv2, "COLOR_" + code)
        add("cvtColor " + code, types, lambda s, a, c=c: cv2.cvtColor(s, c), **opt)

    add("boxFilter 3x3", ALL, lambda s, a: cv2.boxFilter(s, -1, (3, 3)))
    add("boxFilter 5x5 unnorm", ["8UC1", "32FC1"],
        lambda s, a: cv2.boxFilter(s, cv2.CV_32F, (5, 5), normalize=False))
    add("blur 7x7", ALL, lambda s, a: cv2.blur(s, (7, 7)))
    add("GaussianBlur 5x5", ALL, lambda s, a: cv2.GaussianBlur(s, (5, 5), 1.5))
    add("GaussianBlur 3x3", ["8UC1", "32FC1"], lambda s, a: cv2.GaussianBlur(s, (3, 3), 0))
    for k in (3, 5, 7):
        add("filter2D %dx%d" % (k, k), ALL,
            lambda s, a, k=k: cv2.filter2D(s, -1, a["kernel%d" % k]), aux="kernels", tol=1e-4)
    add("sepFilter2D 5", ["8UC1", "32FC1"],
        lambda s, a: cv2.sepFilter2D(s, cv2.CV_32F, a["kernel5"][0], a["kernel5"][:, 0]),
        aux="kernels", tol=1e-4)
    add("Sobel dx", ["8UC1", "32FC1"], lambda s, a: cv2.Sobel(s, cv2.CV_32F, 1, 0, ksize=3))
    add("Sobel dxdy 5", ["8UC1", "32FC1"], lambda s, a: cv2.Sobel(s, cv2.CV_32F, 1, 1, ksize=5),
        tol=1e-4)
    add("Sobel 16S", ["8UC1"], lambda s, a: cv2.Sobel(s, cv2.CV_16S, 0, 1))
    add("Scharr", ["8UC1", "32FC1"], lambda s, a: cv2.Scharr(s, cv2.CV_32F, 1, 0))
    add("Laplacian 1", ["8UC1", "32FC1"], lambda s, a: cv2.Laplacian(s, cv2.CV_32F, ksize=1))
    add("Laplacian 3", ["8UC1", "32FC1"], lambda s, a: cv2.Laplacian(s, cv2.CV_32F, ksize=3))
    add("medianBlur 3", ["8UC1", "8UC4", "32FC1"], lambda s, a: cv2.medianBlur(s, 3))
    add("medianBlur 5", ["8UC1", "8UC4", "32FC1"], lambda s, a: cv2.medianBlur(s, 5))
    add("bilateralFilter", ["8UC1", "8UC3"], lambda s, a: cv2.bilateralFilter(s, 5, 20, 5))
    kernels = {"rect3": cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)),
               "ellipse5": cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)),
               "cross3": cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))}
    for kn, kk in kernels.items():
        add("erode " + kn, ALL, lambda s, a, kk=kk: cv2.erode(s, kk))
        add("dilate " + kn, ALL, lambda s, a, kk=kk: cv2.dilate(s, kk))
    add("dilate rect3 x2", ["8UC1"], lambda s, a: cv2.dilate(s, kernels["rect3"], iterations=2))
    for op in ("OPEN", "CLOSE", "GRADIENT", "TOPHAT", "BLACKHAT"):
        m = getattr(cv2, "MORPH_" + op)
        add("morphologyEx " + op, ["8UC1", "8UC3", "32FC1"],
            lambda s, a, m=m: cv2.morphologyEx(s, m, kernels["ellipse5"]))
    for interp, tol8 in (("NEAREST", 0), ("LINEAR", 1), ("CUBIC", 1), ("AREA", 1)):
        i = getattr(cv2, "INTER_" + interp)
        add("resize x0.5 " + interp, ALL,
            lambda s, a, i=i: cv2.resize(s, None, fx=0.5, fy=0.5, interpolation=i), tol=1e-4)
        add("resize x1.7 " + interp, ["8UC1", "8UC3", "32FC1"],
            lambda s, a, i=i: cv2.resize(s, None, fx=1.7, fy=1.3, interpolation=i), tol=1e-4,
            similar=0.001)
    add("resize x0.37 AREA", ["8UC1", "8UC3", "32FC1"],
        lambda s, a: cv2.resize(s, None, fx=0.37, fy=0.41, interpolation=cv2.INTER_AREA),
        tol=1e-4)
    for interp in ("NEAREST", "LINEAR", "CUBIC"):
        i = getattr(cv2, "INTER_" + interp)
        add("warpAffine " + interp, ["8UC1", "8UC3", "8UC4", "32FC1"],
            lambda s, a, i=i: cv2.warpAffine(s, a["affine"], (a["cols"], a["rows"]), flags=i),
            aux="geometry", tol=1e-3, similar=0.002)
    add("warpPerspective LINEAR", ["8UC1", "8UC3", "32FC1"],
        lambda s, a: cv2.warpPerspective(s, a["persp"], (a["cols"], a["rows"])),
        aux="geometry", tol=1e-3, similar=0.002)
    add("remap LINEAR", ["8UC1", "8UC3", "32FC1"],
        lambda s, a: cv2.remap(s, a["mapx"], a["mapy"], cv2.INTER_LINEAR),
        aux="geometry", tol=1e-3, similar=0.002)
    add("remap NEAREST", ["8UC1", "32FC1"],
        lambda s, a: cv2.remap(s, a["mapx"], a["mapy"], cv2.INTER_NEAREST),
        aux="geometry", similar=0.002)
    for th in ("BINARY", "BINARY_INV", "TRUNC", "TOZERO", "TOZERO_INV"):
        t = getattr(cv2, "THRESH_" + th)
        add("threshold " + th, ["8UC1", "32FC1"],
            lambda s, a, t=t: cv2.threshold(s, 100 if a["depth8"] else 0.4, 200 if a["depth8"]
                                            else 0.9, t)[1])
    add("adaptiveThreshold", ["8UC1"], lambda s, a: cv2.adaptiveThreshold(
        s, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 5, 2))
    for m in ("SQDIFF", "SQDIFF_NORMED", "CCORR", "CCORR_NORMED", "CCOEFF", "CCOEFF_NORMED"):
        mm = getattr(cv2, "TM_" + m)
        add("matchTemplate " + m, ["8UC1", "8UC3", "32FC1"],
            lambda s, a, mm=mm: cv2.matchTemplate(s, a["templ"], mm), aux="templ", tol=1e-4)
    add("dft", ["32FC1"], lambda s, a: cv2.dft(s, flags=cv2.DFT_COMPLEX_OUTPUT), tol=1e-4)
    add("dft rows", ["32FC1"], lambda s, a: cv2.dft(s, flags=cv2.DFT_ROWS | cv2.DFT_COMPLEX_OUTPUT),
        tol=1e-4)
    add("dft complex", ["32FC2"], lambda s, a: cv2.dft(s), tol=1e-4)
    add("idft scaled", ["32FC2"], lambda s, a: cv2.idft(s, flags=cv2.DFT_SCALE), tol=1e-4)
    add("integral", ["8UC1"], lambda s, a: cv2.integral(s, sdepth=cv2.CV_32S))
    add("integral 32F", ["8UC1"], lambda s, a: cv2.integral(s, sdepth=cv2.CV_32F), tol=1e-5)
    add("integral2", ["8UC1"], lambda s, a: cv2.integral2(s, sdepth=cv2.CV_32S,
                                                         sqdepth=cv2.CV_64F), tol=1e-6)
    add("equalizeHist", ["8UC1"], lambda s, a: cv2.equalizeHist(s))
    add("calcHist", ["8UC1"], lambda s, a: cv2.calcHist([s], [0], None, [256], [0, 256]))
    add("add", ALL, lambda s, a: cv2.add(s, a["other"]), aux="other")
    add("subtract", ALL, lambda s, a: cv2.subtract(s, a["other"]), aux="other")
    add("multiply 0.5", ALL, lambda s, a: cv2.multiply(s, a["other"], scale=0.5), aux="other")
    add("divide", ["8UC1", "32FC1"], lambda s, a: cv2.divide(s, a["other"]), aux="other",
        tol=1e-5)
    add("absdiff", ALL, lambda s, a: cv2.absdiff(s, a["other"]), aux="other")
    add("addWeighted", ALL, lambda s, a: cv2.addWeighted(s, 0.3, a["other"], 0.7, 2.0),
        aux="other")
    add("bitwise_and", U8_134, lambda s, a: cv2.bitwise_and(s, a["other"]), aux="other")
    add("compare GT", ["8UC1", "32FC1"], lambda s, a: cv2.compare(s, a["other"], cv2.CMP_GT),
        aux="other")
    add("inRange", ["8UC3", "32FC3"], lambda s, a: cv2.inRange(
        s, (30, 40, 50) if a["depth8"] else (0.1, 0.2, 0.3),
        (200, 210, 220) if a["depth8"] else (0.7, 0.8, 0.9)))
    add("convertScaleAbs", ["8UC1", "32FC1"], lambda s, a: cv2.convertScaleAbs(s, alpha=1.7,
                                                                              beta=-20))
    add("LUT", ["8UC1", "8UC3"], lambda s, a: cv2.LUT(s, a["lut"]), aux="lut")
    add("magnitude", ["32FC1"], lambda s, a: cv2.magnitude(s, a["other"]), aux="other")
    add("phase", ["32FC1"], lambda s, a: cv2.phase(s, a["other"]), aux="other", tol=1e-4)
    add("exp", ["32FC1"], lambda s, a: cv2.exp(s))
    add("log", ["32FC1"], lambda s, a: cv2.log(s), gen="positive")
    add("pow 2.5", ["32FC1"], lambda s, a: cv2.pow(s, 2.5))
    add("sqrt", ["32FC1"], lambda s, a: cv2.sqrt(s))
    for n in ("L1", "L2", "INF"):
        nt = getattr(cv2, "NORM_" + n)
        add("norm " + n, ["8UC1", "8UC3", "32FC1"], lambda s, a, nt=nt: cv2.norm(s, nt), tol=1e-5)
        add("norm diff " + n, ["8UC1", "32FC1"], lambda s, a, nt=nt: cv2.norm(s, a["other"], nt),
            aux="other", tol=1e-5)
    add("mean", ALL, lambda s, a: cv2.mean(s), tol=1e-5)
    add("meanStdDev", ["8UC1", "8UC3", "32FC1"], lambda s, a: cv2.meanStdDev(s), tol=1e-5)
    add("sum", ["8UC1", "32FC1"], lambda s, a: cv2.sumElems(s), tol=1e-5)
    add("countNonZero", ["8UC1", "32FC1"], lambda s, a: cv2.countNonZero(s))
    add("minMaxLoc", ["8UC1", "32FC1"], lambda s, a: cv2.minMaxLoc(s)[:2])
    add("transpose", ["8UC1", "8UC3", "32FC1"], lambda s, a: cv2.transpose(s))
    for fc in (0, 1, -1):
        add("flip %d" % fc, ["8UC1", "8UC3", "8UC4", "32FC1"], lambda s, a, fc=fc: cv2.flip(s, fc))
    add("Canny", ["8UC1"], lambda s, a: cv2.Canny(s, 50, 150), gen="smooth", similar=0.01)
    add("pyrDown", ["8UC1", "8UC3", "32FC1"], lambda s, a: cv2.pyrDown(s))
    add("pyrUp", ["8UC1", "8UC3", "32FC1"], lambda s, a: cv2.pyrUp(s))
    add("cornerHarris", ["8UC1"], lambda s, a: cv2.cornerHarris(s, 2, 3, 0.04), tol=1e-3)
    add("copyMakeBorder", ["8UC1", "8UC3", "32FC1"], lambda s, a: cv2.copyMakeBorder(
        s, 3, 5, 7, 2, cv2.BORDER_REFLECT_101))
    add("split", ["8UC3", "32FC3"], lambda s, a: tuple(cv2.split(s)))
    add("convertTo 32F", ["8UC1", "8UC3"], lambda s, a: cv2.normalize(
        s, None, 0, 1, cv2.NORM_MINMAX, cv2.CV_32F), tol=1e-5)
    return C


# ----------------------------------------------------------------------------------------------
# The child: one case, all sizes.
# ----------------------------------------------------------------------------------------------

def make_input(np, rng, h, w, typ, gen):
    depth, cn = typ.split("C")
    cn = int(cn)
    shape = (h, w) if cn == 1 else (h, w, cn)
    if gen == "nv12":
        return rng.integers(0, 256, (h + h // 2 if h % 2 == 0 else h + 1 + (h + 1) // 2,
                                     w - w % 2), dtype=np.uint8)
    if depth == "8U":
        x = rng.integers(0, 256, shape, dtype=np.uint8)
        if gen == "hsv" and cn == 3:
            x[..., 0] = rng.integers(0, 180, (h, w))
        if gen == "smooth":
            import cv2
            x = cv2.GaussianBlur(x, (7, 7), 2.0)
        return x
    x = rng.random(shape, dtype=np.float32)
    if gen == "hsv" and cn >= 3:
        x[..., 0] *= 360.0
    elif gen == "lab" and cn >= 3:
        x[..., 0] *= 100.0
        x[..., 1:] = x[..., 1:] * 200.0 - 100.0
    elif gen == "positive":
        x += 0.01
    return x


def make_aux(cv2, np, rng, h, w, typ, kind, src):
    a = {"rows": h, "cols": w, "depth8": typ.startswith("8U")}
    if kind == "kernels":
        for k in (3, 5, 7):
            a["kernel%d" % k] = (rng.random((k, k), dtype=np.float32) - 0.3) / k
    elif kind == "geometry":
        a["affine"] = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), 17.0, 0.9)
        src_pts = np.float32([[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]])
        dst_pts = np.float32([[w * 0.05, h * 0.1], [w * 0.9, 0], [0, h * 0.85],
                              [w - 1, h - 1]])
        a["persp"] = cv2.getPerspectiveTransform(src_pts, dst_pts)
        ys, xs = np.indices((h, w), dtype=np.float32)
        a["mapx"] = xs * 0.93 + 3.3 + np.sin(ys / 9.0).astype(np.float32) * 2.0
        a["mapy"] = ys * 1.02 - 1.7
    elif kind == "templ":
        th, tw = max(3, h // 8), max(3, w // 9)
        a["templ"] = np.ascontiguousarray(src[h // 3:h // 3 + th, w // 4:w // 4 + tw])
    elif kind == "other":
        a["other"] = make_input(np, rng, h, w, typ, None)
        if not a["depth8"]:
            a["other"] += 0.05
    elif kind == "lut":
        a["lut"] = rng.integers(0, 256, (1, 256), dtype=np.uint8)
    return a


def to_umat_aux(cv2, a):
    return {k: (cv2.UMat(v) if k in ("templ", "other", "mapx", "mapy") else v)
            for k, v in a.items()}


def as_array(np, r):
    import cv2
    if isinstance(r, cv2.UMat):
        return r.get()
    if isinstance(r, (tuple, list)):
        return [as_array(np, x) for x in r]
    return r


def compare(np, got, ref, opt):
    """(ok, max abs difference, tolerance text)."""
    if isinstance(ref, (list, tuple)):
        if not isinstance(got, (list, tuple)) or len(got) != len(ref):
            return False, float("inf"), "shape"
        worst = (True, 0.0, "")
        for g, r in zip(got, ref):
            res = compare(np, g, r, opt)
            if not res[0] or res[1] > worst[1]:
                worst = res
            if not res[0]:
                return res
        return worst
    g = np.asarray(got)
    r = np.asarray(ref)
    if g.shape != r.shape:
        g = np.squeeze(g)
        r = np.squeeze(r)
        if g.shape != r.shape:
            return False, float("inf"), "shape %s vs %s" % (g.shape, r.shape)
    gd = g.astype(np.float64)
    rd = r.astype(np.float64)
    if np.isnan(rd).any() or np.isnan(gd).any():
        same_nan = np.array_equal(np.isnan(gd), np.isnan(rd))
        if not same_nan:
            return False, float("nan"), "NaN"
        gd = np.nan_to_num(gd)
        rd = np.nan_to_num(rd)
    diff = np.abs(gd - rd)
    maxdiff = float(diff.max()) if diff.size else 0.0
    if np.issubdtype(r.dtype, np.integer) and not np.issubdtype(np.asarray(ref).dtype,
                                                                   np.floating):
        tol = opt.get("tol8", 1)
        if r.dtype == np.int32 or r.dtype == np.int64:
            tol = 0 if "tol8" not in opt else tol
    else:
        scale = max(1.0, float(np.abs(rd).max()) if rd.size else 1.0)
        tol = opt.get("tol", 1e-5) * scale
        if r.dtype == np.uint8:
            tol = max(tol, 1)
    bad = diff > tol
    similar = opt.get("similar")
    if similar is not None and diff.size:
        frac = float(bad.mean())
        return frac <= similar, maxdiff, "%g (%.3g%% over, %g%% allowed)" % (
            tol, frac * 100, similar * 100)
    return not bad.any(), maxdiff, "%g" % tol


def log_size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def log_since(path, offset):
    try:
        with open(path, "r", errors="replace") as f:
            f.seek(offset)
            return f.read()
    except OSError:
        return ""


def run_child(name, typ, repeat):
    import numpy as np
    import cv2
    out = {"name": name, "type": typ, "sizes": []}
    matches = [c for c in cases(cv2, np) if c[0] == name and c[1] == typ]
    if not matches:
        out["status"] = "error"
        out["detail"] = "no such case"
        return out
    _, _, fn, opt = matches[0]
    cv2.ocl.setUseOpenCL(True)
    out["useOpenCL"] = bool(cv2.ocl.useOpenCL())
    dev = cv2.ocl.Device.getDefault()
    out["device"] = dev.name() if out["useOpenCL"] else ""
    log = os.environ.get("CL_CALL_LOG")
    rng = np.random.default_rng(12345)
    kernels = set()
    launches = 0
    status = "ok"
    for (h, w) in SIZES:
        src = make_input(np, rng, h, w, typ, opt.get("gen"))
        aux = make_aux(cv2, np, rng, h, w, typ, opt.get("aux"), src)
        entry = {"size": "%dx%d" % (w, h)}
        cv2.ocl.setUseOpenCL(False)
        try:
            ref = as_array(np, fn(src, aux))
        except cv2.error as e:
            entry["status"] = "n/a"
            entry["detail"] = "CPU path: " + str(e).strip().splitlines()[-1][:200]
            out["sizes"].append(entry)
            status = "n/a" if status == "ok" else status
            continue
        cv2.ocl.setUseOpenCL(True)
        before = log_size(log) if log else 0
        try:
            usrc = cv2.UMat(src)
            uaux = to_umat_aux(cv2, aux)
            got = as_array(np, fn(usrc, uaux))
            cv2.ocl.finish()
        except cv2.error as e:
            for line in (log_since(log, before) if log else "").splitlines():
                if line.startswith("launch "):
                    kernels.add(line.split()[1])
            msg = " ".join(str(e).split())
            entry["status"] = "lost" if "CL_OUT_OF_RESOURCES" in msg else "error"
            at = msg.find("OpenCL error")
            entry["detail"] = (msg[at:] if at >= 0 else msg)[:400]
            out["sizes"].append(entry)
            status = entry["status"]
            break
        text = log_since(log, before) if log else ""
        n = 0
        for line in text.splitlines():
            if line.startswith("launch "):
                n += 1
                kernels.add(line.split()[1])
            elif line.startswith("platform "):
                out["platform"] = line[len("platform "):]
        launches += n
        ok, maxdiff, tol = compare(np, got, ref, opt)
        entry["launches"] = n
        entry["maxdiff"] = maxdiff
        if not ok:
            entry["status"] = "mismatch"
            entry["detail"] = "max |diff| %g, tolerance %s" % (maxdiff, tol)
            if status == "ok":
                status = "mismatch"
        else:
            entry["status"] = "ok"
        out["sizes"].append(entry)
    out["kernels"] = sorted(kernels)
    out["launches"] = launches
    if status == "ok" and log and launches == 0:
        status = "cpu"
    out["status"] = status
    # Times on the largest size that ran.
    if status in ("ok", "mismatch", "cpu") and repeat > 0:
        h, w = SIZES[-1]
        src = make_input(np, rng, h, w, typ, opt.get("gen"))
        aux = make_aux(cv2, np, rng, h, w, typ, opt.get("aux"), src)
        usrc, uaux = cv2.UMat(src), to_umat_aux(cv2, aux)
        try:
            cv2.ocl.setUseOpenCL(True)
            fn(usrc, uaux)
            cv2.ocl.finish()
            ts = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                fn(usrc, uaux)
                cv2.ocl.finish()
                ts.append(time.perf_counter() - t0)
            out["ms_ocl"] = statistics.median(ts) * 1e3
            cv2.ocl.setUseOpenCL(False)
            ts = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                fn(src, aux)
                ts.append(time.perf_counter() - t0)
            out["ms_cpu"] = statistics.median(ts) * 1e3
        except cv2.error as e:
            out["status"] = "lost" if "CL_OUT_OF_RESOURCES" in str(e) else "error"
            out["detail"] = "while timing: " + " ".join(str(e).split())[:300]
    return out


# ----------------------------------------------------------------------------------------------
# The parent.
# ----------------------------------------------------------------------------------------------

def build_logger(cache):
    cc = shutil.which("cc") or shutil.which("gcc")
    src = os.path.join(HERE, "cl_call_log.c")
    lib = os.path.join(cache, "libcl_call_log.so")
    if not cc or not os.path.exists(src):
        return None
    if os.path.exists(lib) and os.path.getmtime(lib) >= os.path.getmtime(src):
        return lib
    r = subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", lib, src, "-Wl,--no-as-needed",
                        "-lOpenCL", "-ldl"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("cl_call_log.c did not build (OpenCL headers?); kernel launches will "
                         "not be checked:\n" + r.stderr)
        return None
    return lib


def target_env(spec, cache, name):
    """spec: a target of targets.py ('pocl', 'tessera', 'tessera:<build dir>', an .icd)."""
    env = opencl_env(spec)
    for k in ("CL_CALL_LOG", "CL_CALL_LOG_ALL"):
        env.pop(k, None)
    env["OPENCV_OPENCL_DEVICE"] = ":CPU:"
    # OpenCV's program binary cache, one per target (main's and a branch's Tessera report the
    # same device and driver strings).
    env["OPENCV_OPENCL_CACHE_DIR"] = os.path.join(cache, "opencv-cache-" + name)
    return env


def classify_child(rc, stdout, stderr, timed_out, types):
    """The results of one child (one operation, several types), by type."""
    got = {}
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[len("RESULT "):])
            got[r["type"]] = r
    lost = "its context is lost" in stderr
    fault = [l for l in stderr.splitlines() if "its context is lost" in l][:2]
    if timed_out:
        what = {"status": "timeout"}
    elif rc != 0:
        if rc < 0:
            import signal
            try:
                sig = signal.Signals(-rc).name
            except ValueError:
                sig = str(-rc)
            why = "crash (%s)" % sig
        elif rc == 134:
            why = "crash (abort)"
        else:
            why = "crash (exit %d)" % rc
        tail = [l for l in stderr.strip().splitlines() if l.strip()][-3:]
        what = {"status": "crash", "detail": why + ": " + " | ".join(tail)[:400]}
    else:
        what = {"status": "crash", "detail": "no result"}
    out = {}
    first_missing = True
    for t in types:
        if t in got:
            out[t] = got[t]
        elif first_missing:
            out[t] = dict(what)
            first_missing = False
        else:
            out[t] = {"status": "not run", "detail": "after the %s above" % what["status"]}
    if lost:
        # The first type whose run saw the fault (OpenCV may go on without noticing).
        for t in types:
            r = out[t]
            if r.get("status") in ("lost", "crash", "error", "mismatch") or t == types[-1]:
                r["faulted"] = True
                r["fault"] = fault
                break
    return out


def cell(r):
    s = r.get("status", "?")
    if s == "mismatch":
        worst = max((e.get("maxdiff", 0) for e in r.get("sizes", [])
                     if e.get("status") == "mismatch"), default=0)
        s = "mismatch %.3g" % worst
    if r.get("faulted") and not s.startswith("lost"):
        s += " (fault)"
    return s


def ms(r, key):
    v = r.get(key)
    return "%.2f" % v if isinstance(v, (int, float)) else ""


def print_compact(results, names, sel):
    """One row per operation: its types' statuses per target, the first type's times."""
    ops = []
    for (n, t) in sel:
        if not ops or ops[-1][0] != n:
            ops.append((n, []))
        ops[-1][1].append(t)
    print("| operation | types | " + " | ".join("%s | %s ms" % (n, n) for n in names) +
          " | CPU ms |")
    print("|" + "---|" * (3 + 2 * len(names)))
    for n, types in ops:
        row = "| %s | %s | " % (n, ", ".join(types))
        cpu = ""
        for tn in names:
            rs = [results[(tn, n, t)] for t in types]
            cells = [cell(r) for r in rs]
            if len(set(cells)) == 1:
                text = cells[0]
            else:
                text = ", ".join("%s %s" % (t, c) for t, c in zip(types, cells))
            row += "%s | %s | " % (text, ms(rs[0], "ms_ocl"))
            cpu = cpu or ms(rs[0], "ms_cpu")
        print(row + cpu + " |")


def print_table(results, names, sel, details):
    head = "| operation | type | " + " | ".join(
        "%s | %s ms" % (n, n) for n in names) + " | CPU ms |"
    print(head)
    print("|" + "---|" * (3 + 2 * len(names)))
    summary = {n: {} for n in names}
    for (n, t) in sel:
        row = "| %s | %s | " % (n, t)
        cpu = ""
        for tn in names:
            r = results[(tn, n, t)]
            row += "%s | %s | " % (cell(r), ms(r, "ms_ocl"))
            cpu = cpu or ms(r, "ms_cpu")
            key = r.get("status", "?")
            summary[tn][key] = summary[tn].get(key, 0) + 1
        print(row + cpu + " |")
    print()
    for tn in names:
        where = sorted({"%s / %s" % (r.get("platform", "?"), r.get("device", "?"))
                        for (t2, _, _), r in results.items() if t2 == tn and r.get("platform")})
        print("%s: %s (OpenCL on %s)" % (
            tn, ", ".join("%s %d" % kv for kv in sorted(summary[tn].items())),
            "; ".join(where) or "?"))
    if details:
        print()
        for (n, t) in sel:
            for tn in names:
                r = results[(tn, n, t)]
                if r.get("status") == "ok" and not r.get("faulted"):
                    continue
                bad = [e for e in r.get("sizes", []) if e.get("status") not in ("ok",)]
                print("- %s %s on %s: %s; kernels %s; %s%s" % (
                    n, t, tn, cell(r), ",".join(r.get("kernels", [])) or "-",
                    r.get("detail", ""),
                    "; ".join("%s: %s" % (e["size"], e.get("detail", e.get("status")))
                              for e in bad)[:600]))
                if r.get("fault"):
                    print("  " + " / ".join(r["fault"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", action="append", default=[],
                    help="NAME=SPEC; SPEC is pocl, tessera, tessera:<build dir> or an .icd path "
                         "(default: tessera=tessera pocl=pocl)")
    ap.add_argument("--only", action="append", default=[],
                    help="run the cases whose name contains this text (repeatable)")
    ap.add_argument("--type", action="append", default=[], help="only these image types")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per case (median)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per case")
    ap.add_argument("--json", help="write every result to this file")
    ap.add_argument("--details", action="store_true",
                    help="print each failure's message and kernels")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--quick", action="store_true",
                    help="only the operations of QUICK, at most three types each")
    ap.add_argument("--rest", action="store_true", help="only the operations not in QUICK")
    ap.add_argument("--report", nargs="+", metavar="JSON",
                    help="print the table of earlier runs' --json files (targets side by side)")
    ap.add_argument("--compact", action="store_true",
                    help="one row per operation (the types' statuses in one cell)")
    ap.add_argument("--child", nargs="+", metavar="NAME TYPE", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child:
        for typ in args.child[1:]:
            res = run_child(args.child[0], typ, args.repeat)
            print("RESULT " + json.dumps(res), flush=True)
            if res["status"] == "lost":
                break  # the context is gone: the parent runs the other types in a new child
        return 0

    if args.report:
        results, names, sel = {}, [], []
        for path in args.report:
            for r in json.load(open(path)):
                results[(r["target"], r["name"], r["type"])] = r
                if r["target"] not in names:
                    names.append(r["target"])
                if (r["name"], r["type"]) not in sel:
                    sel.append((r["name"], r["type"]))
        for tn in names:
            for (n, t) in sel:
                results.setdefault((tn, n, t), {"status": "not run"})
        if args.compact:
            print_compact(results, names, sel)
        else:
            print_table(results, names, sel, args.details)
        return 0

    import numpy as np
    import cv2
    all_cases = [(n, t) for (n, t, _, _) in cases(cv2, np)]
    sel = [(n, t) for (n, t) in all_cases
           if (not args.only or any(o in n for o in args.only))
           and (not args.type or t in args.type)]
    if args.rest:
        sel = [(n, t) for (n, t) in sel if n not in QUICK]
    if args.quick:
        kept = {}
        quick = []
        for (n, t) in sel:
            if n in QUICK and kept.get(n, 0) < 3:
                kept[n] = kept.get(n, 0) + 1
                quick.append((n, t))
        sel = quick
    if args.list:
        for n, t in sel:
            print("%s\t%s" % (n, t))
        return 0
    targets = []
    for t in args.target or ["tessera=tessera", "pocl=pocl"]:
        name, _, spec = t.partition("=")
        targets.append((name, spec or name))
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                         "tessera-opencv-battery")
    os.makedirs(cache, exist_ok=True)
    logger = build_logger(cache)
    results = {}
    for (tname, spec) in targets:
        env = target_env(spec, cache, tname)
        if logger:
            env["OPENCV_OPENCL_RUNTIME"] = logger
        ops = []
        for (n, t) in sel:
            if not ops or ops[-1][0] != n:
                ops.append((n, []))
            ops[-1][1].append(t)
        for i, (n, types) in enumerate(ops):
            todo = list(types)
            line = []
            while todo:
                with tempfile.NamedTemporaryFile(prefix="cl_call_log.", delete=False) as f:
                    logpath = f.name
                env["CL_CALL_LOG"] = logpath
                t0 = time.time()
                try:
                    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--repeat",
                                        str(args.repeat), "--child", n] + todo, env=env,
                                       capture_output=True, text=True, timeout=args.timeout)
                    rs = classify_child(p.returncode, p.stdout, p.stderr, False, todo)
                except subprocess.TimeoutExpired as e:
                    out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                    rs = classify_child(0, out, "", True, todo)
                secs = time.time() - t0
                os.unlink(logpath)
                # Results up to the first that ended the child's context or the child itself;
                # the types after it run again in a new child.
                done = 0
                for t in todo:
                    r = rs[t]
                    if r.get("status") == "not run":
                        break
                    r["seconds"] = secs
                    # OpenCL really used, on the platform asked for (one ICD is visible, but an
                    # OpenCV built with another runtime or a system-wide ICD could answer).
                    want = {"pocl": "Portable Computing Language"}.get(
                        spec, "Tessera" if spec.startswith("tessera") else None)
                    if want and r.get("platform") and want not in r["platform"]:
                        r["status"] = "wrong platform"
                        r["detail"] = "kernels ran on %s" % r["platform"]
                    if r.get("useOpenCL") is False:
                        r["status"] = "no OpenCL"
                    results[(tname, n, t)] = r
                    line.append("%s:%s" % (t, cell(r)))
                    done += 1
                    if r.get("status") in ("lost", "crash", "timeout") or r.get("faulted"):
                        break
                todo = todo[done:]
            if args.json:
                with open(args.json, "w") as f:
                    json.dump([{"target": k[0], "name": k[1], "type": k[2], **v}
                               for k, v in results.items()], f, indent=1)
            sys.stderr.write("[%s %d/%d] %-28s %s\n" % (tname, i + 1, len(ops), n,
                                                        " ".join(line)))
            sys.stderr.flush()

    print_table(results, [t[0] for t in targets], sel, args.details)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"target": k[0], "name": k[1], "type": k[2], **v}
                       for k, v in results.items()], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
