"""Host memory whose last byte lies flush against an inaccessible page (and whose first follows
one), for buffers created with CL_MEM_USE_HOST_PTR: a kernel that reads or writes past such a
buffer faults. fuzz_widen.py's buffers."""
import ctypes
import mmap

import numpy as np
import pyopencl as cl

PAGE = mmap.PAGESIZE
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_mappings = []  # kept alive for the process's life (the buffers point into them)


def guarded_array(nbytes, dtype=np.uint8):
    pages = max(1, (nbytes + PAGE - 1) // PAGE)
    m = mmap.mmap(-1, (pages + 2) * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    if _libc.mprotect(base, PAGE, 0) or _libc.mprotect(base + (pages + 1) * PAGE, PAGE, 0):
        raise OSError(ctypes.get_errno(), "mprotect")
    _mappings.append(m)
    offset = (pages + 1) * PAGE - nbytes
    return np.frombuffer(m, dtype=np.uint8, count=nbytes, offset=offset).view(dtype)


def buffer(ctx, array, flags=cl.mem_flags.READ_WRITE):
    return cl.Buffer(ctx, flags | cl.mem_flags.USE_HOST_PTR, hostbuf=array)
