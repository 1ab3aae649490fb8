// If/else shapes whose EXEC masks the compiler moves between SGPR pairs: an else part that reads values
// the then part defines on other lanes, nested and chained if/else in loops, and functions with the same
// shapes (their blocks are compared as non-kernel functions).

__attribute__((noinline)) float pick(float a, float b, int k)
{
    float r;
    if (k & 1) {
        r = a * b;
    } else if (k & 2) {
        r = a - b;
    } else {
        r = a + b * 2.0f;
    }
    return r;
}

__attribute__((noinline)) int walk(__global const int *restrict p, int n)
{
    int s = 0;
    for (int i = 0; i < n; ++i) {
        const int v = p[i];
        if (v > s)
            s = v - s;
        else
            s = s + (v >> 1);
    }
    return s;
}

__kernel void if_else_chain(__global const float *restrict in, __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    float x = in[i], y = in[i + n];
    float a, b;
    if (x > y) {
        a = x * 2.0f;
        b = y + 1.0f;
    } else {
        a = y - x;
        b = x * y;
    }
    if (a > 1.0f) {
        a = a * b;
    } else {
        b = b - a;
    }
    out[i] = a + b;
}

__kernel void if_else_loop(__global const int *restrict in, __global int *restrict out, int n)
{
    const int i = get_global_id(0);
    int acc = 0, other = 1;
    for (int k = 0; k < n; ++k) {
        const int v = in[i * n + k];
        if (v & 1) {
            acc += v * other;
        } else {
            other = other * 3 + acc;
            if (v & 2)
                acc ^= other;
        }
    }
    out[i] = acc + other;
}

__kernel void calls_shapes(__global const float *restrict in, __global const int *restrict p,
                           __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    float r = pick(in[i], in[i + 1], i);
    if (r > 0.0f)
        r += (float)walk(p + i, n);
    out[i] = r;
}
