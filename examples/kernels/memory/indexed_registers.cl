// Vectors indexed by a run-time value: the compiler keeps them in registers and addresses an element
// through M0 (s_set_gpr_idx_on on gfx8/9, v_movrel* on gfx10+) instead of a chain of selects.

__kernel void indexed_extract(__global const float16 *restrict in, __global const int *restrict idx,
                              __global float *restrict out, int k)
{
    const int i = get_global_id(0);
    const float16 v = in[i];
    out[i] = v[k & 15] * 2.0f + v[(k + 5) & 15];
}

__kernel void indexed_insert(__global float16 *restrict data, int k, float x)
{
    const int i = get_global_id(0);
    float16 v = data[i];
    v[k & 15] = x;
    v[(k + 3) & 15] += v[(k + 9) & 15];
    data[i] = v * 0.5f;
}

__kernel void indexed_divergent(__global const float16 *restrict in, __global const int *restrict idx,
                                __global float *restrict out)
{
    const int i = get_global_id(0);
    const float16 v = in[i];
    out[i] = v[idx[i] & 15];
}
