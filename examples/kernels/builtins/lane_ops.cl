// Cross-lane builtins that work on every target: readfirstlane (VGPR -> SGPR),
// ds_bpermute (lane shuffle through the LDS crossbar, no LDS allocation), and mbcnt
// for a lane index that does not depend on the wave size.

__kernel void uniform_base(__global const int *restrict offsets, __global const float *restrict in,
                           __global float *restrict out)
{
    const int i = __builtin_amdgcn_workitem_id_x() + get_group_id(0) * get_local_size(0);
    // The first active lane's offset is broadcast; the rest of the wave follows it.
    const int base = __builtin_amdgcn_readfirstlane(offsets[get_group_id(0)]);
    out[i] = in[base + __builtin_amdgcn_workitem_id_x()] * 2.0f;
}

__kernel void shuffle_xor_sum(__global const int *restrict in, __global int *restrict out)
{
    const int i = get_global_id(0);
    const int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    int v = in[i];
    for (int m = 1; m < 32; m <<= 1)
        v += __builtin_amdgcn_ds_bpermute((lane ^ m) << 2, v);
    out[i] = v;
}

__kernel void rotate_lanes(__global const float *restrict in, __global float *restrict out, int shift)
{
    const int i = get_global_id(0);
    const int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    const int src = (lane + shift) & 31;
    const float v = in[i];
    const float r = as_float(__builtin_amdgcn_ds_bpermute(src << 2, as_int(v)));
    out[i] = shift > 0 ? r : v;
}
