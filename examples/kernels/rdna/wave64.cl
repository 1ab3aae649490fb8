// An RDNA kernel compiled in wave64 mode (-mwavefrontsize64): lane masks become 64-bit
// SGPR pairs again, unlike the same target's default wave32 code.

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void ballot_wave64(__global const float *restrict in, __global ulong *restrict masks, __global float *restrict out)
{
    const int i = get_global_id(0);
    const float v = in[i];
    const ulong m = __builtin_amdgcn_ballot_w64(v > 0.0f);
    float r = v;
    if (v > 0.0f)
        r = sqrt(v) + (float)popcount(m);
    else if (v < -1.0f)
        r = -v * 0.5f;
    out[i] = r;
    if (get_local_id(0) == 0)
        masks[get_group_id(0)] = m;
}

__kernel void wave64_reduce_loop(__global const int *restrict in, __global int *restrict out, int n)
{
    const int i = get_global_id(0);
    int acc = 0;
    for (int j = i; j < n; j += get_global_size(0))
        acc += in[j] > 0 ? in[j] : -in[j] / 2;
    out[i] = acc;
}
