// Dynamically indexed private arrays and vectors that stay in registers: LLVM reaches an element
// through an indexed move (s_set_gpr_idx_on + v_mov_b32 on gfx9, v_movrel* on gfx10+) or a chain of
// selects. The index is unknown to the compiler; only the vector's size bounds what a move can reach.

// A private array indexed in a loop (the issue's shape): a[idx & 15] += ...
__kernel void indexed_private(__global const int *restrict idx, __global const float *restrict in,
                              __global float *restrict out, int n)
{
    const int g = get_global_id(0);
    float a[16];
    for (int k = 0; k < 16; ++k)
        a[k] = in[g * 16 + k];
    for (int i = 0; i < n; ++i)
        a[idx[i] & 15] += in[i] * 0.5f;
    float s = 0.0f;
    for (int k = 0; k < 16; ++k)
        s += a[k] * (float)(k + 1);
    out[g] = s;
}

// The same with a float16 vector, read and written through the index in one loop.
__kernel void indexed_vector_loop(__global const int *restrict idx, __global float16 *restrict data, int n)
{
    const int g = get_global_id(0);
    float16 a = data[g];
    for (int i = 0; i < n; ++i) {
        const int j = idx[i] & 15;
        a[j] = a[j] * 1.5f + a[(j + 1) & 15];
    }
    data[g] = a;
}

// The index comes from memory unmasked: out of range is undefined behaviour, nothing bounds it.
__kernel void indexed_unmasked(__global const int *restrict idx, __global const float16 *restrict in,
                               __global float *restrict out, int n)
{
    const int g = get_global_id(0);
    float16 a = in[g];
    for (int i = 0; i < n; ++i)
        a[idx[i]] += (float)i;
    out[g] = a[idx[n]] + a.s0 + a.sf;
}

// Indices bounded by a compare (0 <= j < 8) into an int16 vector.
__kernel void indexed_bounded(__global const int *restrict idx, __global int16 *restrict data, int n)
{
    const int g = get_global_id(0);
    int16 a = data[g];
    for (int i = 0; i < n; ++i) {
        const int j = idx[i];
        if (j < 8 && j >= 0)
            a[j + 8] += a[j] * g;
    }
    data[g] = a;
}
