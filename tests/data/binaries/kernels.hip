// Test kernels built without the HIP headers or device libraries (-nogpuinc -nogpulib), so any target works.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#if !defined(__HIP_DEVICE_COMPILE__)
struct dim3 { unsigned x, y, z; };
extern "C" int hipLaunchKernel(const void*, dim3, dim3, void**, unsigned long, void*);
#endif
#ifndef N
#define N 4
#endif
extern "C" __global__ void axpy(float a, const float* x, float* y) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] + y[i];
}
extern "C" __global__ void heavy(const float* x, float* y) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  float acc[N];
  for (int j = 0; j < N; ++j) acc[j] = x[i + j * 1024];
  float s = 0;
  for (int j = 0; j < N; ++j) for (int k = 0; k < N; ++k) s += acc[j] * acc[(j * 7 + k) % N];
  y[i] = s;
}
__global__ void lds(float* y) {
  __shared__ float t[256];
  unsigned i = __builtin_amdgcn_workitem_id_x();
  t[i] = y[i];
  __builtin_amdgcn_s_barrier();
  y[i] = t[255 - i];
}
