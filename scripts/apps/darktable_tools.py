#!/usr/bin/python3
"""Helpers of darktable_check.sh (issue 27, item 7); run with Debian's python3 (numpy, pyopencl).

  image OUT.pfm [hdr]                a synthetic 640x480 float RGB test image (gradients, colour
                                     patches, fine detail, noise, a highlight); hdr: 1600x1200
                                     with values up to 8 and slightly negative ones
  dng OUT.dng                        a synthetic 1600x1200 Bayer raw (DNG) with clipped highlights
  xmp DATA.DB OUT.xmp MODULE...      a darktable 4.2 sidecar whose history enables MODULE... with
                                     darktable's own built-in presets (from DATA.DB) or, where it has
                                     none, the module's default parameters
  compare REF.pfm OUT.pfm            max/mean absolute difference and NaN counts, one line
  kernels KERNELDIR OPTIONS          builds every program of KERNELDIR/programs.conf on the first
                                     OpenCL device (one program at a time) and prints OK/FAIL lines
"""
import sqlite3
import struct
import sys

import numpy as np

# Module -> (preset name in data.db, or None for the parameters below).
PRESETS = {
    "exposure": "scene-referred default",
    "filmicrgb": None,
    "colorbalancergb": "basic colorfulness: standard",
    "bilat": "clarity",  # local contrast
    "sharpen": "sharpen",
    "denoiseprofile": "wavelets: chroma only",
    "hazeremoval": None,
    "atrous": "clarity",  # contrast equalizer
}
ALL_MODULES = list(PRESETS)


def filmicrgb_defaults():
    # dt_iop_filmicrgb_params_t version 6 ($DEFAULT values of darktable 4.2's filmicrgb.c):
    # 18 floats then 11 enums/ints; colour science v6 (2022).
    floats = [18.45, -8.0, 4.0, 0.0, 3.0, 100.0, 100.0, 0.0, 0.0, 18.45, 0.01517634, 100.0, 4.0,
              0.01, 1.0, 0.0, 0.0, 0.2]
    ints = [3, 3, 1, 0, 1, 1, 0, 0, 0, 2, 0]
    return 6, struct.pack("<18f11i", *floats, *ints)


def hazeremoval_defaults():
    return 1, struct.pack("<2f", 0.2, 0.2)  # strength, distance


def image(path, hdr=False):
    """hdr: 1600x1200, values up to 8 and slightly negative ones (camera noise below black)."""
    w, h = (1600, 1200) if hdr else (640, 480)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    rng = np.random.default_rng(7)
    r = (x / w) ** 2.2
    g = (y / h) ** 1.5
    b = 0.5 + 0.5 * np.sin(x / 7.0) * np.cos(y / 11.0)
    img = np.stack([r, g, b], -1) * 0.8
    for i in range(6):
        img[40 + 60 * i:90 + 60 * i, 500:600] = [(i % 3) / 2.0, ((i + 1) % 3) / 2.0,
                                                 ((i + 2) % 3) / 2.0]
    img[200:260, 200:260] = [1.0, 0.95, 0.9]
    img += rng.normal(0, 0.02, img.shape).astype(np.float32)
    if hdr:
        img[h // 3:h // 2, w // 3:w // 2] *= 8.0  # a highlight region far above white
        img = np.clip(img, -0.01, None).astype(np.float32)
    else:
        img = np.clip(img, 0.0, 1.0).astype(np.float32)
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        f.write(img[::-1].astype("<f4").tobytes())


def dng(path):
    """A minimal uncompressed 16-bit Bayer (RGGB) DNG, 1600x1200, 12-bit data with black level 256,
    white 4095 and clipped highlights: darktable's raw pipeline (rawprepare, white balance,
    highlight reconstruction, demosaic) runs on it. TIFF 6 with the DNG 1.4 tags rawspeed needs."""
    w, h = 1600, 1200
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    rng = np.random.default_rng(11)
    scene = np.stack([(x / w) ** 2.2, (y / h) ** 1.5,
                      0.5 + 0.5 * np.sin(x / 9.0) * np.cos(y / 13.0)], -1) * 0.6
    for i in range(6):
        scene[100 + 150 * i:220 + 150 * i, 1250:1500] = [(i % 3) / 2.0, ((i + 1) % 3) / 2.0,
                                                         ((i + 2) % 3) / 2.0]
    scene[400:700, 500:800] *= 6.0  # clipped in the raw: highlight reconstruction has work
    mosaic = np.empty((h, w), np.float32)
    mosaic[0::2, 0::2] = scene[0::2, 0::2, 0] * 0.5   # R (camera white balance: R and B weaker)
    mosaic[0::2, 1::2] = scene[0::2, 1::2, 1]         # G
    mosaic[1::2, 0::2] = scene[1::2, 0::2, 1]         # G
    mosaic[1::2, 1::2] = scene[1::2, 1::2, 2] * 0.6   # B
    raw = 256 + mosaic * 3000 + rng.normal(0, 6, mosaic.shape)
    raw = np.clip(np.rint(raw), 0, 4095).astype("<u2")
    data = raw.tobytes()

    entries = []  # (tag, type, count, value bytes)

    def tag(t, typ, values):
        fmt = {1: "B", 2: "s", 3: "H", 4: "I", 5: "II", 10: "ii"}[typ]
        if typ == 2:
            b = values.encode() + b"\0"
            entries.append((t, 2, len(b), b))
            return
        flat = []
        for v in values:
            flat.extend(v if isinstance(v, tuple) else [v])
        b = struct.pack("<" + fmt[-1] * len(flat), *flat)
        entries.append((t, typ, len(values), b))

    tag(254, 4, [0])                      # NewSubFileType: the main image
    tag(256, 4, [w])
    tag(257, 4, [h])
    tag(258, 3, [16])                     # BitsPerSample
    tag(259, 3, [1])                      # no compression
    tag(262, 3, [32803])                  # PhotometricInterpretation: CFA
    tag(271, 2, "Tessera")
    tag(272, 2, "Synthetic Bayer")
    tag(273, 4, [0])                      # StripOffsets, patched below
    tag(274, 3, [1])
    tag(277, 3, [1])
    tag(278, 4, [h])
    tag(279, 4, [len(data)])
    tag(284, 3, [1])
    tag(33421, 3, [2, 2])                 # CFARepeatPatternDim
    tag(33422, 1, [0, 1, 1, 2])           # CFAPattern: RGGB
    tag(50706, 1, [1, 4, 0, 0])           # DNGVersion
    tag(50708, 2, "Tessera Synthetic Bayer")
    tag(50714, 4, [256])                  # BlackLevel
    tag(50717, 4, [4095])                 # WhiteLevel
    # ColorMatrix1 (XYZ -> camera), sRGB's inverse, in SRATIONAL /10000.
    cm = [32404, -15371, -4985, -9692, 18760, 415, 556, -2040, 10572]
    tag(50721, 10, [(v, 10000) for v in cm])
    tag(50728, 5, [(5, 10), (1, 1), (6, 10)])  # AsShotNeutral
    tag(50778, 3, [21])                   # CalibrationIlluminant1: D65
    entries.sort()
    ifd_at = 8
    ifd_size = 2 + 12 * len(entries) + 4
    extra_at = ifd_at + ifd_size
    extra = b""
    ifd = struct.pack("<H", len(entries))
    offsets = {}
    for t, typ, count, b in entries:
        if len(b) <= 4:
            ifd += struct.pack("<HHI", t, typ, count) + b.ljust(4, b"\0")
        else:
            offsets[t] = extra_at + len(extra)
            ifd += struct.pack("<HHII", t, typ, count, extra_at + len(extra))
            extra += b + (b"\0" if len(b) % 2 else b"")
    ifd += struct.pack("<I", 0)
    data_at = extra_at + len(extra)
    # patch StripOffsets (tag 273, inline)
    for n, (t, typ, count, b) in enumerate(entries):
        if t == 273:
            pos = 2 + 12 * n + 8
            ifd = ifd[:pos] + struct.pack("<I", data_at) + ifd[pos + 4:]
    with open(path, "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", ifd_at) + ifd + extra + data)


def xmp(db, out, modules):
    con = sqlite3.connect(db)
    generic_blend = con.execute(
        "select blendop_version, blendop_params from presets where operation='exposure' "
        "and name='scene-referred default'").fetchone()
    items = []
    for m in modules:
        preset = PRESETS[m]
        if preset is None:
            version, params = {"filmicrgb": filmicrgb_defaults,
                               "hazeremoval": hazeremoval_defaults}[m]()
            blend_version, blend = generic_blend
        else:
            row = con.execute(
                "select op_version, op_params, blendop_version, blendop_params from presets "
                "where operation=? and name=?", (m, preset)).fetchone()
            if row is None:
                sys.exit(f"no preset '{preset}' of {m} in {db}")
            version, params, blend_version, blend = row
        items.append(
            f'     <rdf:li darktable:num="{len(items)}" darktable:operation="{m}" '
            f'darktable:enabled="1" darktable:modversion="{version}" '
            f'darktable:params="{bytes(params).hex()}" darktable:multi_name="" '
            f'darktable:multi_priority="0" darktable:blendop_version="{blend_version}" '
            f'darktable:blendop_params="{bytes(blend).hex()}"/>')
    with open(out, "w") as f:
        f.write(f"""<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:darktable="http://darktable.sf.net/"
   darktable:xmp_version="4"
   darktable:history_end="{len(items)}">
   <darktable:history>
    <rdf:Seq>
{chr(10).join(items)}
    </rdf:Seq>
   </darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
""")


def read_pfm(path):
    with open(path, "rb") as f:
        kind = f.readline().strip()
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        channels = 3 if kind == b"PF" else 1
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return data.reshape(h, w, channels)[::-1]


def compare(ref_path, out_path):
    ref, out = read_pfm(ref_path), read_pfm(out_path)
    if ref.shape != out.shape:
        print(f"shape {out.shape} != {ref.shape}")
        return
    nan_ref = int(np.isnan(ref).sum())
    nan_out = int(np.isnan(out).sum())
    both = ~(np.isnan(ref) | np.isnan(out))
    d = np.abs(ref[both].astype(np.float64) - out[both])
    maxd = float(d.max()) if d.size else float("nan")
    meand = float(d.mean()) if d.size else float("nan")
    print(f"max|d|={maxd:.6f} mean|d|={meand:.6f} NaN={nan_out}/{out.size} "
          f"(reference NaN={nan_ref}) pixels>0.02: {int((d > 0.02).sum())}")


# What Tessera's build log says when a program clang accepted did not reach the JIT.
TRANSLATION_MARKERS = ("SPIR-V translation failed", "SPIR-V translator failed",
                       "does not validate", "LLVM IR -> SPIR-V", "compiler process stopped")


def kernels(kerneldir, options):
    import pyopencl as cl
    ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    for line in open(f"{kerneldir}/programs.conf"):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        name = words[0]
        src = open(f"{kerneldir}/{name}").read()
        try:
            prg = cl.Program(ctx, src).build(options=options)
            print(f"OK   {name} ({len(prg.all_kernels())} kernels)", flush=True)
        except Exception as e:  # noqa: BLE001 (pyopencl raises several types)
            text = str(e)
            # A failure after clang accepted the program (Tessera's translation or validation)
            # is the implementation's; a diagnostic of clang's is the program's.
            stage = "translation" if any(m in text for m in TRANSLATION_MARKERS) else "frontend"
            lines = [l for l in text.splitlines() if "error" in l.lower()]
            print(f"FAIL {name} [{stage}]: {' | '.join(lines[:3])[:400]}", flush=True)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "image":
        image(sys.argv[2], hdr=len(sys.argv) > 3 and sys.argv[3] == "hdr")
    elif cmd == "dng":
        dng(sys.argv[2])
    elif cmd == "xmp":
        xmp(sys.argv[2], sys.argv[3], sys.argv[4:] or ALL_MODULES)
    elif cmd == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif cmd == "kernels":
        kernels(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
