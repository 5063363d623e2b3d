#!/usr/bin/env python3
"""Differential testing of the JIT's widening (issue 27, item 2): random OpenCL C kernels with
integer arithmetic on vectors of 2, 3, 4, 8 and 16 elements, vloadN/vstoreN at odd offsets,
guards that end inside a chunk, guards the low lanes skip, divergent branches, loops with per-lane
trip counts, unsigned range checks, __local tiles across a barrier, barriers in a loop that carries
values across them, 2-D groups whose rows meet in a tile across barriers (the rows the JIT runs
four at once, row_jam.cpp), groups of a required size whose work-items are renumbered as
CLBlast's are (the lane-stride analysis's masks and shifts), and runs of scalars read and written
component by component (what spaced_groups.cpp joins, interleaved with what it must not join
across), and barriers in a loop of 2-D groups (the tiled shape: groups of VF x VF, of other sizes
and of required ones, launched uniform or non-uniform, OpenCL 2.0, so that the copy of the
work-group function for one group size, fixed_group_size.cpp, runs the full groups and the
general code the partial ones; PoCL 3.1 has no non-uniform groups and is left out of those), run
through pyopencl
against Tessera scalar (TESSERA_WIDEN=0) and widened (forced widths), and PoCL where installed.
Integer results must agree bit for bit. Every buffer ends flush against an inaccessible page
(CL_MEM_USE_HOST_PTR on memory of our own), so a read or write past a buffer faults.

  fuzz_widen.py [--count N] [--seed S] [--keep DIR]   generate, run, compare
  fuzz_widen.py --replay FILE.cl ...                  run kept kernels (regressions) the same way

Each configuration runs in a process of its own (the environment is read when the driver loads).
Exit status 0 when everything agreed, 1 on a difference or a fault, 77 when pyopencl or
Tessera's ICD is missing. The kernels are generated so that the scalar semantics is defined:
arithmetic on unsigned types (wrap-around), every index inside its buffer.
"""
import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = [("uchar", 1), ("ushort", 2), ("uint", 4)]
WIDTHS = [2, 3, 4, 8, 16]
LOCAL = 32  # local size; the global size is GROUPS * LOCAL
GROUPS = 3
ROW_X, ROWS = 16, 6  # the 2-D shape's local size: rows of one 16-wide chunk, 4 jammed + 2
RESHAPE_X, RESHAPE_Y = 16, 8  # the reshaped shape's required local size
LETTERS = "0123456789abcdef"


# --- generation ---------------------------------------------------------------------------------

SHAPES = ["plain", "guard", "skip", "loop", "range", "branch", "local", "rows", "carried",
          "reshaped", "spaced", "components", "comptile", "tiled"]
# The tiled shape's group sizes: VF x VF for the widths the fuzzer forces (the size the JIT makes a
# copy of the work-group function for, fixed_group_size.cpp), others, and required ones.
TILES = [(4, 4), (8, 8), (16, 16), (16, 4), (8, 2)]


class Gen:
    def __init__(self, rng, shape=None):
        self.r = rng
        self.shape = shape

    def vtype(self, t, n):
        return t if n == 1 else f"{t}{n}"

    def leaf(self, t, n, names):
        r = self.r.random()
        vt = self.vtype(t, n)
        if r < 0.45:
            return self.r.choice(names)
        if r < 0.65:
            return f"(({vt})({self.r.randint(0, 300)}u))"
        if r < 0.8:
            return f"(({vt})(({t})lid))"
        if r < 0.9:
            return f"(({vt})(({t})gid))"
        if n > 1:
            # a swizzle of a named vector: elements in another order
            perm = [self.r.randrange(n) for _ in range(n)]
            return f"({self.r.choice(names)}).s{''.join(LETTERS[k] for k in perm)}"
        return self.r.choice(names)

    def expr(self, t, n, names, depth=0):
        if depth >= 3 or self.r.random() < 0.25:
            return self.leaf(t, n, names)
        a = self.expr(t, n, names, depth + 1)
        b = self.expr(t, n, names, depth + 1)
        op = self.r.choice(["+", "-", "*", "^", "&", "|", "<<", ">>", "min", "max", "rotate",
                            "hadd", "add_sat", "abs_diff", "clz", "popcount", "mad24", "sel"])
        vt = self.vtype(t, n)
        if op in "+-*^&|" or op in ("<<", ">>"):
            return f"(({vt})({a} {op} {b}))"
        if op in ("clz", "popcount"):
            return f"{op}({a})"
        if op == "mad24":
            if t != "uint":
                return f"(({vt})({a} * {b}))"
            return f"mad24({a} & 0xfff, {b} & 0xfff, {self.leaf(t, n, names)})"
        if op == "sel":
            c = self.expr(t, n, names, depth + 1)
            return f"select({a}, {b}, ({self.itype(t, n)})({c} > {a}))" if n > 1 else \
                f"(({c}) > ({a}) ? ({b}) : ({a}))"
        return f"{op}({a}, {b})"

    def itype(self, t, n):
        signed = {"uchar": "char", "ushort": "short", "uint": "int"}[t]
        return self.vtype(signed, n)

    def components(self, shape, t, vt, off, e1):
        """A work-item's run of k neighbouring scalars handled component by component (OpenCV's
        3-byte pixels, CLBlast's float2 tile copy), which the widening makes k masked accesses
        every k-th element apart and spaced_groups.cpp may join into one: every component read
        and written, in random orders, loads and stores of the run interleaved, read-modify-writes
        of one component from another (a join across them would read stale bytes), optionally
        through a __local tile across a barrier (comptile) and in 2-D groups whose rows the JIT
        jams (row_jam.cpp). Returns (k, the 2-D local size or None, the body)."""
        r = self.r
        k = r.randint(2, 4)
        two_d = (ROW_X, ROWS) if r.random() < 0.4 else None
        items = two_d[0] * two_d[1] if two_d else LOCAL
        order = list(range(k))
        r.shuffle(order)
        body = [f"  uint b = {off} + {k}u * gid;"]
        if shape == "components" and r.random() < 0.5:
            # Loads and stores of the run interleaved, reading `out` where it was written already:
            # a load joined across a store to its bytes (or a store across a load of them) reads
            # or leaves stale bytes. `out` starts with random bytes, not a constant.
            body += [f"  {t} c{j} = in[b + {j}];" for j in order]
            body.append(f"  {t} acc = ({t})s;")
            for _ in range(r.randint(2 * k, 4 * k)):
                j = r.randrange(k)
                if r.random() < 0.55:
                    buf = "out" if r.random() < 0.7 else "in"
                    body.append(f"  acc = ({t})(acc * 3u + {buf}[b + {j}]);")
                else:
                    body.append(f"  out[b + {j}] = ({t})(acc + c{j} + {j}u);")
            body += [f"  {vt} v = ({vt})(acc) ^ ({vt})(({t})(c{k - 1} << 1));", f"  {vt} q = {e1};"]
        else:
            body += [f"  {t} c{j} = in[b + {j}];" for j in order]
            body += [f"  {vt} v = ({vt})(c0) ^ ({vt})(({t})(c{k - 1} << 1));", f"  {vt} q = {e1};"]
            vals = [f"({t})(q.s0 + c{j} * {2 * j + 1}u)" for j in range(k)]
            if shape == "comptile":
                body += [f"  __local {t} tile[{k * items}];"]
                r.shuffle(order)
                body += [f"  tile[{k}u * lid + {j}] = {vals[j]};" for j in order]
                body += ["  barrier(CLK_LOCAL_MEM_FENCE);",
                         f"  uint o = {k}u * ((lid + s) % {items}u);"]
                r.shuffle(order)
                body += [f"  {t} d{j} = tile[o + {j}];" for j in order]
                vals = [f"({t})(d{j} ^ q.s1)" for j in range(k)]
            r.shuffle(order)
            body += [f"  out[b + {j}] = {vals[j]};" for j in order]
        for _ in range(r.randint(0, 3)):
            # One component from another of the same run, after the stores: a join of the run's
            # loads or stores across this one would move bytes it reads or writes.
            a_, b_ = r.randrange(k), r.randrange(k)
            body.append(f"  out[b + {a_}] = ({t})(out[b + {b_}] * 3u + c{r.randrange(k)});")
        if r.random() < 0.5:
            # A second pass over the whole run for some lanes only (masked, lanes left out).
            r.shuffle(order)
            body.append("  if (gid % 3u != s % 3u) {")
            body += [f"    out[b + {j}] = ({t})(out[b + {j}] ^ ({t})(q.s{j % 2} + {j}u));"
                     for j in order]
            body.append("  }")
        return k, two_d, body

    def kernel(self, name):
        r = self.r
        t, size = r.choice(TYPES)
        n = r.choice(WIDTHS)
        vt = self.vtype(t, n)
        off = r.randint(0, n + 2)  # elements before the first vector: odd offsets
        shape = r.choice(SHAPES)
        shape = self.shape or shape  # drawn anyway: the same seed makes the same kernels
        two_d = {"rows": (ROW_X, ROWS), "reshaped": (RESHAPE_X, RESHAPE_Y)}.get(shape)
        g = GROUPS * (two_d[0] * two_d[1] if two_d else LOCAL)
        if shape == "tiled":
            two_d = r.choice(TILES)
            required = r.random() < 0.4
            # Non-uniform (OpenCL 2.0; PoCL 3.1 has none): the last group in x and/or y partial.
            extra = (r.randint(1, two_d[0] - 1) if r.random() < 0.3 else 0,
                     r.randint(1, two_d[1] - 1) if r.random() < 0.3 else 0)
            tiled_global = [2 * two_d[0] + extra[0], 2 * two_d[1] + extra[1]]
            g = tiled_global[0] * tiled_global[1]
        body = []
        params = [f"__global const {t}* in", f"__global {t}* out", "uint n", "uint s"]
        # How many vectors of `in` the kernel may read (the buffer holds exactly those).
        reads = g
        nval = r.randint(1, g - 1)
        sval = r.randint(1, 6)
        e1 = self.expr(t, n, ["v", "w"])
        e2 = self.expr(t, n, ["v", "w"])
        head = [f"  {vt} w = ({vt})(({t})(gid * 7u + 3u));"]
        if shape == "plain":
            body = [f"  {vt} v = vload{n}(gid, in + {off});", f"  {vt} r = {e1};",
                    f"  vstore{n}(r, gid, out + {off});"]
        elif shape == "guard":
            reads = nval
            body = ["  if (gid < n) {", f"    {vt} v = vload{n}(gid, in + {off});",
                    f"    {vt} r = {e1};", f"    vstore{n}(r, gid, out + {off});", "  }"]
        elif shape == "skip":
            # Lanes below s skip; inside, j is not negative (the optimizer may zero-extend it).
            reads = g - sval
            body = ["  int j = (int)lid - (int)s;", "  if (j >= 0) {",
                    f"    size_t e = get_group_id(0) * {LOCAL} + (size_t)j;",
                    f"    {vt} v = vload{n}(e, in + {off});", f"    {vt} r = {e1};",
                    f"    vstore{n}(r, e, out + {off});", "  }"]
        elif shape == "loop":
            m = r.randint(2, 7)
            body = [f"  {vt} v = vload{n}(gid, in + {off});", f"  {vt} acc = v;",
                    f"  for (uint k = 0; k < (lid % {m}u) + (n & 3u); ++k) {{",
                    f"    {vt} r = {e1};", f"    acc = ({vt})(acc * ({t})3 ^ r ^ ({t})k);", "  }",
                    f"  vstore{n}(acc, gid, out + {off});"]
        elif shape == "range":
            body = [f"  {vt} v = vload{n}(gid, in + {off});", f"  {vt} acc = ({vt})(0);",
                    "  if (lid - s < (n & 15u)) {",
                    "    for (uint k = 0; k <= lid % 9u; ++k) {", f"      {vt} r = {e1};",
                    f"      acc = ({vt})(acc + (r ^ ({t})k));", "    }", "  }",
                    f"  vstore{n}(acc, gid, out + {off});"]
        elif shape == "branch":
            body = [f"  {vt} v = vload{n}(gid, in + {off});", f"  {vt} r;",
                    f"  if ((lid & 3u) == (s & 3u)) r = {e1}; else r = {e2};",
                    f"  vstore{n}(r, gid, out + {off});"]
        elif shape == "rows":
            body = ["  uint lx = get_local_id(0), ly = get_local_id(1);",
                    f"  __local {vt} tile[{ROWS}][{ROW_X}];",
                    f"  {vt} v = vload{n}(gid, in + {off});", "  tile[ly][lx] = v;",
                    "  barrier(CLK_LOCAL_MEM_FENCE);",
                    f"  w = tile[(ly + s) % {ROWS}u][(lx + n) % {ROW_X}u];", f"  {vt} r = {e1};",
                    f"  if (n & 1u) r = ({vt})(r ^ {e2});", "  barrier(CLK_LOCAL_MEM_FENCE);",
                    "  if ((ly & 1u) == (s & 1u)) tile[ly][lx] = r;",
                    "  barrier(CLK_LOCAL_MEM_FENCE);",
                    f"  r = ({vt})(r ^ tile[(ly + 1u) % {ROWS}u][lx]);",
                    f"  vstore{n}(r, gid, out + {off});"]
        elif shape == "carried":
            # Barriers in a loop of a uniform trip count: the counter t and the sum u are the same
            # in every work-item (one copy per group, barrier_regions.cpp), acc's old value is
            # still read after its next one is computed (its own slot).
            body = [f"  __local {vt} tile[{LOCAL}];", f"  {vt} v = vload{n}(gid, in + {off});",
                    f"  {vt} acc = v, drift = ({vt})(0);", "  uint u = s;",
                    "  for (uint t = 0; t < (n & 7u) + 1u; ++t) {", "    tile[lid] = acc;",
                    "    barrier(CLK_LOCAL_MEM_FENCE);", f"    w = tile[(lid + t + s) % {LOCAL}u];",
                    f"    {vt} prev = acc;", f"    acc = ({vt})({e1} ^ ({t})u);",
                    "    if (t & 1u) u += t;", "    barrier(CLK_LOCAL_MEM_FENCE);",
                    f"    drift = ({vt})(drift ^ prev ^ acc);", "  }",
                    f"  vstore{n}(({vt})(acc ^ drift), gid, out + {off});"]
        elif shape == "reshaped":
            # CLBlast's reshaping of a group with a required size (its GlobalToLocalA): the
            # work-items renumbered as tid % a columns of tid / a rows, each reading the element
            # at (row * k + c, column) of its group's block, in memory and in a local tile across
            # a barrier: the optimizer's masks, shifts and ors of tid (((tid >> 2) & 30) | 1),
            # which the widening may find the same for a chunk.
            a, k, c = r.choice([2, 4, 8, 16, 32]), r.randint(1, 4), r.randint(0, 3)
            it = r.choice(["int", "uint"])
            items = RESHAPE_X * RESHAPE_Y
            body = [f"  {it} tid = ({it})get_local_id(0) + {RESHAPE_X} * ({it})get_local_id(1);",
                    f"  {it} la0 = tid % {a}, la1 = tid / {a};",
                    f"  {it} at = ((la1 * {k} + {c}) * {a} + la0) & {items - 1};",
                    f"  __local {vt} tile[{items}];",
                    f"  {vt} v = vload{n}(get_group_id(1) * {items} + at, in + {off});",
                    f"  {vt} r = {e1};", "  tile[tid] = r;", "  barrier(CLK_LOCAL_MEM_FENCE);",
                    "  w = tile[at];", f"  r = ({vt})(r ^ {e2});", f"  vstore{n}(r, gid, out + {off});"]
        elif shape == "tiled":
            # Barriers in a loop of a 2-D group (a tiled GEMM's shape): each step every work-item
            # puts its value into the group's tile and after the barrier reads another work-item's,
            # at indices from the group's own size (a partial group's tile is smaller); the ids,
            # sizes and step order all change the result.
            body = ["  uint lx = get_local_id(0), ly = get_local_id(1);",
                    "  uint sx = get_local_size(0), sy = get_local_size(1);",
                    f"  __local {vt} tile[{two_d[0] * two_d[1]}];",
                    f"  {vt} v = vload{n}(gid, in + {off});", f"  {vt} acc = v;",
                    "  for (uint t = 0; t < (n & 3u) + 2u; ++t) {",
                    "    tile[ly * sx + lx] = acc;", "    barrier(CLK_LOCAL_MEM_FENCE);",
                    "    w = tile[((ly + t + s) % sy) * sx + (lx + n) % sx];",
                    f"    acc = ({vt})({e1} ^ w ^ ({t})(t + sx * 3u + get_group_id(1)));",
                    "    barrier(CLK_LOCAL_MEM_FENCE);", "  }",
                    f"  vstore{n}(({vt})(acc ^ ({t})get_group_id(0)), gid, out + {off});"]
        elif shape == "spaced":
            # Each work-item its own run of k neighbouring scalars (CLBlast's XgemmDirect at 2 x 2
            # outputs a work-item): lanes k elements apart, read and written at some of the k
            # positions, one store under a guard that leaves lanes out. The last work-item's run
            # ends both buffers, so a widened access past its lanes' elements faults.
            k = r.randint(2, 4)
            c1, c2, c3, c4 = (r.randrange(k) for _ in range(4))
            c4 = c4 if c4 != c3 else (c3 + 1) % k
            spaced = off + k * g
            body = [f"  {t} a = in[{off} + {k} * gid + {c1}], b = in[{off} + {k} * gid + {c2}];",
                    f"  {vt} v = ({vt})(a) ^ ({vt})(b);", f"  {vt} r = {e1};",
                    f"  out[{off} + {k} * gid + {c3}] = ({t})(r.s0 + b);",
                    f"  if (gid % 3u != s % 3u) out[{off} + {k} * gid + {c4}] = ({t})(r.s1 ^ a);"]
        elif shape in ("components", "comptile"):
            k, two_d, body = self.components(shape, t, vt, off, e1)
            g = GROUPS * (two_d[0] * two_d[1] if two_d else LOCAL)
            spaced = off + k * g
        else:  # local
            body = [f"  __local {vt} tile[{LOCAL}];", f"  {vt} v = vload{n}(gid, in + {off});",
                    "  tile[lid] = v;", "  barrier(CLK_LOCAL_MEM_FENCE);",
                    f"  w = tile[(lid + s) % {LOCAL}u];", f"  {vt} r = {e1};",
                    f"  vstore{n}(r, gid, out + {off});"]
        src = "\n".join([
            f"// fuzz_widen: type {t}{n} shape {shape} offset {off}",
            "__kernel " + (f"__attribute__((reqd_work_group_size({RESHAPE_X}, {RESHAPE_Y}, 1))) "
                           if shape == "reshaped" else
                           f"__attribute__((reqd_work_group_size({two_d[0]}, {two_d[1]}, 1))) "
                           if shape == "tiled" and required else "") +
            f"void {name}({', '.join(params)}) {{",
            *(["  uint lid = get_local_id(1) * get_local_size(0) + get_local_id(0);",
               "  uint gid = get_global_id(1) * get_global_size(0) + get_global_id(0);"]
              if two_d else
              ["  uint lid = get_local_id(0);", "  uint gid = get_global_id(0);"]),
            *head, *body, "}", ""])
        meta = {"name": name, "type": t, "size": size, "n": n, "off": off, "shape": shape,
                "in_elems": off + reads * n, "out_elems": off + g * n, "nval": nval, "sval": sval}
        if shape in ("spaced", "components", "comptile"):
            meta["in_elems"] = meta["out_elems"] = spaced
        if two_d:
            meta["local"] = [two_d[0], two_d[1]]
            meta["global"] = [two_d[0], two_d[1] * GROUPS]
        if shape == "tiled":
            meta["global"] = tiled_global
            if extra != (0, 0):
                meta["options"] = "-cl-std=CL2.0"
                meta["tessera_only"] = True
        return src, meta


META_TAG = "// fuzz_widen meta: "


def with_meta(src, meta):
    return META_TAG + json.dumps(meta) + "\n" + src


def read_meta(text):
    first = text.splitlines()[0]
    assert first.startswith(META_TAG), "not a fuzz_widen kernel"
    return json.loads(first[len(META_TAG):])


# --- running (in a child process per configuration) ---------------------------------------------

def run_all(files, platform_name):
    import numpy as np
    import pyopencl as cl
    sys.path.insert(0, HERE)
    from guarded import guarded_array, buffer
    plats = [p for p in cl.get_platforms() if platform_name.lower() in p.name.lower()]
    if not plats:
        return {"error": f"no platform {platform_name}"}
    dev = plats[0].get_devices()[0]
    results = {}
    ctx = cl.Context([dev])
    for path in files:
        text = open(path).read()
        meta = read_meta(text)
        key = os.path.basename(path)
        try:
            prg = cl.Program(ctx, text).build(options=meta.get("options", ""))
            k = getattr(prg, meta["name"])
            dt = {"uchar": np.uint8, "ushort": np.uint16, "uint": np.uint32}[meta["type"]]
            es = meta["size"]
            a = guarded_array(meta["in_elems"] * es, np.uint8)
            seed = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16)
            a[:] = np.random.default_rng(seed).integers(0, 256, a.size, dtype=np.uint8)
            o = guarded_array(meta["out_elems"] * es, np.uint8)
            o[:] = np.random.default_rng(seed + 1).integers(0, 256, o.size, dtype=np.uint8)
            q = cl.CommandQueue(ctx)
            A = buffer(ctx, a.view(dt), cl.mem_flags.READ_ONLY)
            O = buffer(ctx, o.view(dt))
            k.set_args(A, O, np.uint32(meta["nval"]), np.uint32(meta["sval"]))
            cl.enqueue_nd_range_kernel(q, k, tuple(meta.get("global", [GROUPS * LOCAL])),
                                       tuple(meta.get("local", [LOCAL])))
            back = np.empty(o.size, np.uint8)
            cl.enqueue_copy(q, back.view(dt), O)
            q.finish()
            results[key] = hashlib.sha256(back.tobytes()).hexdigest()[:16]
        except Exception as e:  # a fault loses the context: start another
            results[key] = "ERROR " + str(e).splitlines()[0][:120]
            ctx = cl.Context([dev])
    return results


def child(files, env, platform_name):
    e = dict(os.environ)
    e.update(env)
    e["PYOPENCL_NO_CACHE"] = "1"
    e["TESSERA_CACHE"] = "0"
    p = subprocess.run([sys.executable, __file__, "--child", platform_name, *files],
                       env=e, capture_output=True, text=True, timeout=1800)
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except Exception:
        return {"error": (p.stderr or p.stdout)[-400:]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default=os.path.join(HERE, "regressions"),
                    help="where kernels that disagree or fault are kept")
    ap.add_argument("--widths", default="4,8,16")
    ap.add_argument("--shape", choices=SHAPES, help="generate only kernels of this shape (reshaped, rows, ...)")
    ap.add_argument("--no-pocl", action="store_true")
    ap.add_argument("--replay", nargs="*")
    ap.add_argument("--child", nargs="+")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_all(args.child[1:], args.child[0])))
        return 0
    try:
        import pyopencl  # noqa: F401
    except ImportError:
        print("fuzz_widen: pyopencl missing (python3-pyopencl): skipped")
        return 77
    tessera_icd = os.environ.get("TESSERA_ICD_DIR")
    if not tessera_icd:
        print("fuzz_widen: TESSERA_ICD_DIR (the build's icd folder) not set: skipped")
        return 77
    # The generated kernels live only as long as the run; disagreeing ones are copied to --keep.
    with tempfile.TemporaryDirectory(prefix="fuzz_widen.") as tmp:
        return generate_and_compare(args, tmp, tessera_icd)


def generate_and_compare(args, tmp, tessera_icd):
    files = []
    if args.replay is not None:
        files = args.replay
    else:
        rng = random.Random(args.seed)
        for i in range(args.count):
            src, meta = Gen(rng, args.shape).kernel(f"k{args.seed}_{i}")
            path = os.path.join(tmp, f"k{args.seed}_{i}.cl")
            with open(path, "w") as f:
                f.write(with_meta(src, meta))
            files.append(path)
    configs = {"scalar": ({"OCL_ICD_VENDORS": tessera_icd, "TESSERA_WIDEN": "0"}, "tessera")}
    for w in args.widths.split(","):
        configs[f"widen{w}"] = ({"OCL_ICD_VENDORS": tessera_icd, "TESSERA_WIDEN": w}, "tessera")
    pocl = "/etc/OpenCL/vendors/pocl.icd"
    if not args.no_pocl and os.path.exists(pocl):
        configs["pocl"] = ({"OCL_ICD_VENDORS": pocl}, "portable")
    runs = {name: child(files, env, plat) for name, (env, plat) in configs.items()}
    for name, r in runs.items():
        if "error" in r:
            print(f"fuzz_widen: {name}: {r['error']}")
            return 1
    bad = 0
    for path in files:
        key = os.path.basename(path)
        tessera_only = read_meta(open(path).read()).get("tessera_only", False)
        got = {name: r.get(key) for name, r in runs.items()
               if not (tessera_only and name == "pocl")}
        if len(set(got.values())) == 1 and not got["scalar"].startswith("ERROR"):
            continue
        bad += 1
        print(f"fuzz_widen: {key} disagrees: {json.dumps(got)}")
        if args.replay is None:
            os.makedirs(args.keep, exist_ok=True)
            dest = os.path.join(args.keep, key)
            with open(path) as src, open(dest, "w") as out:
                out.write(src.read())
            print(f"  kept as {dest}")
    print(f"fuzz_widen: {len(files)} kernels, {len(configs)} configurations "
          f"({', '.join(configs)}), {bad} disagreeing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
