// A kernel whose arguments clang preloads into SGPRs (-mllvm -amdgpu-kernarg-preload-count=3, gfx942).
#define __global__ __attribute__((global))
extern "C" __global__ void pre(float a, float* y, unsigned n) { y[__builtin_amdgcn_workitem_id_x() + n] = a; }
