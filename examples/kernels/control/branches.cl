// Divergent control flow: an if/else-if chain whose arms compute different values,
// a diamond where each side writes a different register set, and an early return.

__kernel void classify(__global const float *restrict x, __global float *restrict y, int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float v = x[i];
    float r;
    if (v < -10.0f)
        r = -1.0f;
    else if (v < 0.0f)
        r = v * v * 0.01f - 1.0f;
    else if (v < 1.0f)
        r = sqrt(v);
    else if (v < 100.0f)
        r = log2(v) + 1.0f;
    else
        r = 7.6438f + (v - 100.0f) * 1e-4f;
    y[i] = r;
}

__kernel void diamond(__global const int4 *restrict in, __global int4 *restrict out, int key)
{
    const int i = get_global_id(0);
    int4 v = in[i];
    int a, b, c;
    if ((v.x ^ key) & 1) {
        a = v.x * v.y;
        b = v.z + key;
        c = v.w >> 3;
    } else {
        a = v.y - v.z;
        b = v.w * key;
        c = v.x | 0x100;
    }
    out[i] = (int4)(a, b, c, a + b + c);
}

__kernel void early_exit_search(__global const int *restrict hay, int len, __global const int *restrict needles,
                                __global int *restrict pos)
{
    const int i = get_global_id(0);
    const int needle = needles[i];
    for (int j = 0; j < len; ++j) {
        if (hay[j] == needle) {
            pos[i] = j;
            return;
        }
    }
    pos[i] = -1;
}
