// Private arrays: a small one indexed dynamically (register indexing via m0 /
// s_set_gpr_idx or v_movrel), a large one that must live in scratch, and a per-thread
// insertion sort whose array may be promoted to registers or spilled.

__kernel void small_dynamic_index(__global const float *restrict in, __global const int *restrict idx,
                                  __global float *restrict out)
{
    const int i = get_global_id(0);
    float lut[8];
    for (int k = 0; k < 8; ++k)
        lut[k] = in[i * 8 + k] * (float)(k + 1);
    const int j = idx[i];
    out[i] = lut[j & 7] + lut[(j >> 3) & 7];
}

__kernel void scratch_histogram(__global const uchar *restrict in, __global uint *restrict out, int len)
{
    const int i = get_global_id(0);
    uint counts[64];
    for (int k = 0; k < 64; ++k)
        counts[k] = 0;
    for (int k = 0; k < len; ++k)
        counts[in[i * len + k] & 63] += 1;
    uint best = 0, best_bin = 0;
    for (int k = 0; k < 64; ++k) {
        if (counts[k] > best) {
            best = counts[k];
            best_bin = k;
        }
    }
    out[i] = (best_bin << 16) | best;
}

__kernel void sort16(__global const int *restrict in, __global int *restrict out)
{
    const int i = get_global_id(0);
    int v[16];
    for (int k = 0; k < 16; ++k)
        v[k] = in[i * 16 + k];
    for (int k = 1; k < 16; ++k) {
        const int key = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = key;
    }
    for (int k = 0; k < 16; ++k)
        out[i * 16 + k] = v[k];
}
