// Kernels for RDNA targets (wave32 by default): lane masks are 32-bit (vcc_lo,
// exec_lo), ballots return uint, and permlane16 exchanges values inside a row.

__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void ballot_compact(__global const int *restrict in, __global int *restrict out, __global uint *restrict counts)
{
    const int lane = get_local_id(0);
    const int v = in[get_global_id(0)];
    const uint mask = __builtin_amdgcn_ballot_w32(v > 0);
    const uint before = popcount(mask & ((1u << lane) - 1u));
    if (v > 0)
        out[get_group_id(0) * 32 + before] = v;
    if (lane == 0)
        counts[get_group_id(0)] = popcount(mask);
}

__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void permlane_rotate(__global const uint *restrict in, __global uint *restrict out, uint sel_lo, uint sel_hi)
{
    const int i = get_global_id(0);
    const uint v = in[i];
    const uint swapped = __builtin_amdgcn_permlane16(v, v, sel_lo, sel_hi, false, false);
    const uint crossed = __builtin_amdgcn_permlanex16(swapped, swapped, sel_lo, sel_hi, false, false);
    out[i] = swapped ^ crossed;
}

// Divergent loop whose exit condition is a 32-bit lane mask; SGPR pressure is low so
// the interesting part is exec_lo/vcc_lo handling across blocks.
__kernel void divergent_wave32_loop(__global const float *restrict x, __global float *restrict y, int n)
{
    const int i = get_global_id(0);
    float v = x[i];
    int iters = 0;
    while (fabs(v) > 1e-3f && iters < n) {
        v = v * 0.5f - (iters & 1 ? 0.125f : -0.0625f);
        ++iters;
    }
    y[i] = v + (float)iters;
}
