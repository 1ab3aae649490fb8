// Template kernels with mangled names (no HIP headers: -nogpuinc -nogpulib), for the demangling oracle test.
#define __global__ __attribute__((global))
namespace spline {
template <typename T, long K>
__global__ void basis_fw_kernel(const T* x, T* y) { y[__builtin_amdgcn_workitem_id_x()] = x[0] * T(K); }
template <typename T>
struct pair { T a, b; };
template <typename T, int N>
__global__ void reduce(const pair<T>* in, T* out, unsigned n) {
  T s = in[0].a;
  for (int i = 1; i < N; ++i) s = in[i].b;
  out[__builtin_amdgcn_workitem_id_x() + n] = s;
}
}  // namespace spline
template __global__ void spline::basis_fw_kernel<double, 1>(const double*, double*);
template __global__ void spline::basis_fw_kernel<float, 3>(const float*, float*);
template __global__ void spline::reduce<float, 4>(const spline::pair<float>*, float*, unsigned);
template __global__ void spline::reduce<spline::pair<int>, 2>(const spline::pair<spline::pair<int>>*,
                                                              spline::pair<int>*, unsigned);
