#!/usr/bin/env python3
"""pyopencl over Tessera: build a program from OpenCL C source, run it on the root device and on
each of its sub-devices (PARTITION_EQUALLY of one compute unit), check the results on the host."""
import sys

import numpy as np
import pyopencl as cl

SOURCE = """
__kernel void axpb(__global const float* x, __global float* y, float a, float b) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + b;
}
"""


def run(device, n=4099):
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx, device)
    program = cl.Program(ctx, SOURCE).build()
    x = np.arange(n, dtype=np.float32)
    y = np.empty_like(x)
    mf = cl.mem_flags
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    yb = cl.Buffer(ctx, mf.WRITE_ONLY, y.nbytes)
    program.axpb(queue, (n,), None, xb, yb, np.float32(3), np.float32(-1))
    cl.enqueue_copy(queue, y, yb)
    queue.finish()
    if not np.array_equal(y, 3 * x - 1):
        raise SystemExit(f"wrong results on {device.name} ({device.max_compute_units} units)")


def main():
    platforms = [p for p in cl.get_platforms() if p.name == "Tessera"]
    if not platforms:
        raise SystemExit("no Tessera platform")
    root = platforms[0].get_devices()[0]
    run(root)
    print(f"root: {root.name}, {root.max_compute_units} compute units: ok")
    if root.max_compute_units < 2:
        return 0
    subs = root.create_sub_devices([cl.device_partition_property.EQUALLY, 1])
    assert len(subs) == root.max_compute_units, len(subs)
    for i, sub in enumerate(subs):
        assert sub.parent_device == root
        run(sub)
        print(f"sub-device {i}: {sub.max_compute_units} compute unit: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
