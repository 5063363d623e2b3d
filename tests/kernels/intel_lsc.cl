// Kernels written for Intel's driver call its LSC builtins (a load, store, prefetch or atomic with
// a cache hint) by name, declared as below (compute-benchmarks' ulls kernels do). Tessera provides
// them: the module needs no linking, and each is the plain operation at base[immElemOff].
enum LSC_LDCC { LSC_LDCC_DEFAULT = 0, LSC_LDCC_L1UC_L3UC = 1 };
enum LSC_STCC { LSC_STCC_DEFAULT = 0, LSC_STCC_L1UC_L3UC = 1 };

uint __builtin_IB_lsc_load_global_uint(const __global uint* base, int immElemOff,
                                       enum LSC_LDCC cacheOpt);
uint __builtin_IB_lsc_load_global_uchar_to_uint(const __global uchar* base, int immElemOff,
                                                enum LSC_LDCC cacheOpt);
uint4 __builtin_IB_lsc_load_global_uint4(const __global uint4* base, int immElemOff,
                                         enum LSC_LDCC cacheOpt);
ulong2 __builtin_IB_lsc_load_local_ulong2(const __local ulong2* base, int immElemOff);
void __builtin_IB_lsc_store_global_uint(__global uint* base, int immElemOff, uint val,
                                        enum LSC_STCC cacheOpt);
void __builtin_IB_lsc_store_global_ushort_from_uint(__global ushort* base, int immElemOff, uint val,
                                                    enum LSC_STCC cacheOpt);
void __builtin_IB_lsc_store_global_uint4(__global uint4* base, int immElemOff, uint4 val,
                                         enum LSC_STCC cacheOpt);
void __builtin_IB_lsc_store_local_ulong2(__local ulong2* base, int immElemOff, ulong2 val);
void __builtin_IB_lsc_prefetch_global_uint(const __global uint* base, int immElemOff,
                                           enum LSC_LDCC cacheOpt);
uint __builtin_IB_lsc_atomic_add_global_uint(volatile __global uint* base, int immElemOff, uint val,
                                             enum LSC_STCC cacheOpt);
uint __builtin_IB_lsc_atomic_inc_global_uint(volatile __global uint* base, int immElemOff,
                                             enum LSC_STCC cacheOpt);
int __builtin_IB_lsc_atomic_min_global_int(volatile __global int* base, int immElemOff, int val,
                                           enum LSC_STCC cacheOpt);
uint __builtin_IB_lsc_atomic_max_local_uint(volatile __local uint* base, int immElemOff, uint val);
float __builtin_IB_lsc_atomic_add_global_float(volatile __global float* base, int immElemOff,
                                               float val, enum LSC_STCC cacheOpt);
float __builtin_IB_lsc_atomic_cmpxchg_global_float(volatile __global float* base, int immElemOff,
                                                   float cmp, float val, enum LSC_STCC cacheOpt);
uint __builtin_IB_lsc_atomic_cmpxchg_global_uint(volatile __global uint* base, int immElemOff,
                                                 uint cmp, uint val, enum LSC_STCC cacheOpt);
void __builtin_IB_lsc_fence_global_untyped(int scope, int flushType);

// compute-benchmarks' ulls_benchmark_write_one.cl, as it is.
__kernel void write_one(__global int* outBuffer) { outBuffer[0] = 1; }
__kernel void write_one_uncached(__global uint* outBuffer) {
  __builtin_IB_lsc_store_global_uint(outBuffer, 0, 1, LSC_STCC_L1UC_L3UC);
}

// Element i of `out` (4 uints per work-item) from in[i + 1], bytes[i + 2] and vec[i]; a ushort at
// shorts[i + 1]; local ulong2 through a store and load at an offset.
__kernel void memory_ops(__global uint* out, const __global uint* in, const __global uchar* bytes,
                         __global uint4* vec, __global ushort* shorts, __local ulong2* scratch) {
  uint i = get_global_id(0), l = get_local_id(0);
  __builtin_IB_lsc_prefetch_global_uint(in, (int)i, LSC_LDCC_DEFAULT);
  uint a = __builtin_IB_lsc_load_global_uint(in + i, 1, LSC_LDCC_L1UC_L3UC);
  uint b = __builtin_IB_lsc_load_global_uchar_to_uint(bytes + i, 2, LSC_LDCC_DEFAULT);
  uint4 v = __builtin_IB_lsc_load_global_uint4(vec, (int)i, LSC_LDCC_DEFAULT);
  __builtin_IB_lsc_store_global_uint4(vec, (int)i, v * 2u, LSC_STCC_L1UC_L3UC);
  __builtin_IB_lsc_store_global_ushort_from_uint(shorts + i, 1, 0x10000u + i, LSC_STCC_DEFAULT);
  __builtin_IB_lsc_store_local_ulong2(scratch, (int)l + 1, (ulong2)(i, (ulong)i << 40));
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong2 s = __builtin_IB_lsc_load_local_ulong2(scratch + 1, (int)l);
  __builtin_IB_lsc_store_global_uint(out, (int)(4 * i), a, LSC_STCC_DEFAULT);
  out[4 * i + 1] = b;
  out[4 * i + 2] = v.w;
  out[4 * i + 3] = (uint)(s.x + (s.y >> 40));
}

// counters: [0] sum of i, [1] count, [2] min of 100 - i, [3] the sum of the groups' local maxima,
// [5] the compare-exchange winner (also in [6]); fsum: [0] the float sum, [1] 2.5 once exchanged.
__kernel void atomic_ops(__global uint* counters, __global float* fsum, __local uint* localMax) {
  uint i = get_global_id(0);
  if (get_local_id(0) == 0) *localMax = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __builtin_IB_lsc_atomic_add_global_uint(counters, 0, i, LSC_STCC_DEFAULT);
  __builtin_IB_lsc_atomic_inc_global_uint(counters, 1, LSC_STCC_DEFAULT);
  __builtin_IB_lsc_atomic_min_global_int((volatile __global int*)counters, 2, 100 - (int)i,
                                         LSC_STCC_DEFAULT);
  __builtin_IB_lsc_atomic_max_local_uint(localMax, 0, i);
  __builtin_IB_lsc_atomic_add_global_float(fsum, 0, 0.5f, LSC_STCC_DEFAULT);
  __builtin_IB_lsc_atomic_cmpxchg_global_float(fsum, 1, 0.0f, 2.5f, LSC_STCC_DEFAULT);
  if (__builtin_IB_lsc_atomic_cmpxchg_global_uint(counters, 5, 0u, i + 1, LSC_STCC_DEFAULT) == 0u)
    counters[6] = i + 1;
  __builtin_IB_lsc_fence_global_untyped(0, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) __builtin_IB_lsc_atomic_add_global_uint(counters, 3, *localMax, 0);
}
