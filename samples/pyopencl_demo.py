#!/usr/bin/python3
"""pyopencl on Tessera: the platform and its device, a kernel from OpenCL C source on the root
device, then the device cut by affinity domain (NEXT_PARTITIONABLE) and the kernel run on each part.

Run with Debian's python3 (python3-pyopencl, python3-numpy) and OCL_ICD_VENDORS naming a folder that
holds tessera.icd (build/icd in the build tree)."""
import numpy as np
import pyopencl as cl

SOURCE = """
uint tessera_current_pu(void);
__kernel void scale(__global const float* x, __global float* y, float a, __global uint* pu) {
  size_t i = get_global_id(0);
  y[i] = a * x[i];
  if (get_local_id(0) == 0) pu[get_group_id(0)] = tessera_current_pu();
}
"""


def run(device, n=1 << 16, local=256):
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx, device)
    program = cl.Program(ctx, SOURCE).build()
    x = np.arange(n, dtype=np.float32)
    y = np.empty_like(x)
    pu = np.zeros(n // local, dtype=np.uint32)
    mf = cl.mem_flags
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    yb = cl.Buffer(ctx, mf.WRITE_ONLY, y.nbytes)
    pb = cl.Buffer(ctx, mf.WRITE_ONLY, pu.nbytes)
    program.scale(queue, (n,), (local,), xb, yb, np.float32(2), pb)
    cl.enqueue_copy(queue, y, yb)
    cl.enqueue_copy(queue, pu, pb)
    queue.finish()
    if not np.array_equal(y, 2 * x):
        raise SystemExit(f"WRONG results on {device.name}")
    return sorted(set(int(p) for p in pu))


def main():
    platform = cl.get_platforms()[0]
    root = platform.get_devices()[0]
    print(f"{platform.name} {platform.version}: {root.name}, {root.max_compute_units} compute units")
    print(f"root device: correct, work-groups ran on PUs {run(root)}")
    try:
        parts = root.create_sub_devices(
            [cl.device_partition_property.BY_AFFINITY_DOMAIN,
             cl.device_affinity_domain.NEXT_PARTITIONABLE])
    except cl.Error as e:
        print(f"the root device does not split by affinity domain ({e}); done")
        return
    for i, part in enumerate(parts):
        print(f"part {i} ({part.max_compute_units} compute units): correct, "
              f"work-groups ran on PUs {run(part)}")
    print("pyopencl demo done")


if __name__ == "__main__":
    main()
