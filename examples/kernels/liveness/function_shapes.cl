// Non-kernel functions of the shapes library code has (issue 30, item 7: block live-ins of functions, not only
// kernels): nested loops, a switch, a loop left by break, a local-memory pointer argument, a struct returned
// through memory, more arguments than the argument VGPRs hold, fp64, and two calls in a divergent region.

typedef struct { float lo, hi; int count; } span_t;

__attribute__((noinline)) float nested_sum(__global const float *restrict m, int rows, int cols)
{
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) {
        float row = 0.0f;
        for (int c = 0; c < cols; ++c)
            row += m[r * cols + c] * (float)(c + 1);
        acc = acc * 0.5f + row;
    }
    return acc;
}

__attribute__((noinline)) int classify(int op, int a, int b)
{
    switch (op & 7) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / (b | 1);
    case 4: return a << (b & 31);
    case 5: return max(a, b);
    default: return a ^ b;
    }
}

__attribute__((noinline)) int find_first(__global const int *restrict v, int n, int key)
{
    int found = -1;
    for (int i = 0; i < n; ++i) {
        if (v[i] == key) {
            found = i;
            break;
        }
    }
    return found;
}

__attribute__((noinline)) float tile_mean(__local const float *tile, int lid, int width)
{
    float s = 0.0f;
    for (int k = -2; k <= 2; ++k)
        s += tile[clamp(lid + k, 0, width - 1)];
    return s * 0.2f;
}

__attribute__((noinline)) span_t bounds(__global const float *restrict x, int n)
{
    span_t s = {x[0], x[0], 1};
    for (int i = 1; i < n; ++i) {
        s.lo = fmin(s.lo, x[i]);
        s.hi = fmax(s.hi, x[i]);
        s.count += x[i] > 0.0f;
    }
    return s;
}

__attribute__((noinline)) float many_args(float a0, float a1, float a2, float a3, float a4, float a5, float a6,
                                          float a7, float a8, float a9, float a10, float a11, float a12,
                                          float a13, float a14, float a15, float a16, float a17, float a18,
                                          float a19, float a20, float a21, float a22, float a23, float a24,
                                          float a25, float a26, float a27, float a28, float a29, float a30,
                                          float a31, float a32, float a33, float a34)
{
    return (a0 + a1 * a2 - a3) * (a4 + a5) + a6 * a7 + a8 - a9 + a10 * a11 + a12 + a13 * a14 + a15 - a16
        + a17 * a18 + a19 + a20 * a21 - a22 + a23 * a24 + a25 + a26 * a27 + a28 - a29 + a30 * a31 + a32
        + a33 * a34;
}

__attribute__((noinline)) double horner64(double x, __global const double *restrict c, int n)
{
    double r = 0.0;
    for (int i = n - 1; i >= 0; --i)
        r = fma(r, x, c[i]);
    return r;
}

__kernel void fn_nested(__global const float *restrict m, __global float *restrict out, int rows, int cols)
{
    const int i = get_global_id(0);
    out[i] = nested_sum(m + i * rows * cols, rows, cols);
}

__kernel void fn_switch_find(__global const int *restrict v, __global int *restrict out, int n)
{
    const int i = get_global_id(0);
    int k = find_first(v, n, i);
    out[i] = classify(v[i], k, i);
}

__kernel void fn_local(__global const float *restrict in, __global float *restrict out, __local float *tile)
{
    const int lid = get_local_id(0), w = get_local_size(0);
    tile[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile_mean(tile, lid, w);
}

__kernel void fn_struct(__global const float *restrict x, __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    span_t s = bounds(x + i * n, n);
    out[i] = (s.hi - s.lo) * (float)s.count;
}

__kernel void fn_many_args(__global const float *restrict x, __global float *restrict out)
{
    const int i = get_global_id(0);
    float v = x[i];
    out[i] = many_args(v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7, v + 8, v + 9, v + 10, v + 11,
                       v + 12, v + 13, v + 14, v + 15, v + 16, v + 17, v + 18, v + 19, v + 20, v + 21, v + 22,
                       v + 23, v + 24, v + 25, v + 26, v + 27, v + 28, v + 29, v + 30, v + 31, v + 32, v + 33,
                       v * v);
}

__kernel void fn_divergent_calls(__global const double *restrict c, __global const float *restrict m,
                                 __global double *restrict out, int n)
{
    const int i = get_global_id(0);
    double r = 0.0;
    if (i & 1)
        r = horner64((double)i * 0.001, c, n);
    else
        r = (double)nested_sum(m, n, 4) + horner64(0.5, c, n);
    out[i] = r;
}
