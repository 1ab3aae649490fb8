// Launch-size kernels for the occupancy oracle (no HIP headers: -nogpuinc -nogpulib). Each holds 16 KiB of LDS,
// so the workgroup size changes LLVM's '; Occupancy:' through the LDS limit (getOccupancyWithLocalMemSize).
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, n)))
#ifndef BOUND
#define BOUND 256
#endif
#define BODY                                                               \
  __shared__ float t[4096];                                                \
  unsigned i = __builtin_amdgcn_workitem_id_x();                           \
  for (int j = 0; j < 16; ++j) t[i + j * 256] = y[i + j * 256];            \
  __builtin_amdgcn_s_barrier();                                            \
  y[i] = t[4095 - i];
extern "C" __global__ void __launch_bounds__(BOUND) bounded(float* y) { BODY }
extern "C" __global__ void unbounded(float* y) { BODY }
