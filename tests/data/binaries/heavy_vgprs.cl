// 120 values live at once: enough VGPRs that the register file limits occupancy (generic-target oracle).
__kernel void heavy(__global const float* x, __global float* y) {
  size_t i = (size_t)__builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  float acc[120];
  for (int j = 0; j < 120; ++j) acc[j] = x[i + j * 4096];
  float s = 0;
  for (int j = 0; j < 120; ++j) for (int k = 0; k < 120; ++k) s += acc[j] * acc[(j * 7 + k) % 120];
  y[i] = s;
}
