// A kernel that requires 64-thread workgroups and holds 16 KiB of LDS (the launch-size occupancy oracle).
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void reqd(__global float* y) {
  __local float t[4096];
  size_t i = get_local_id(0);
  for (int j = 0; j < 64; ++j) t[i + j * 64] = y[i + j * 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  y[i] = t[4095 - i];
}
