// More non-kernel function shapes (issue 30, item 7): a chain of three calls, a call inside a loop of a
// function, a private array indexed at run time inside a function, 64-bit division, atomics on a pointer
// argument, a do/while with continue, float4 arguments and results, and a function whose result is used only
// on one side of a branch.

__attribute__((noinline)) float leaf_scale(float x, float s)
{
    return x > 0.0f ? x * s : x * 0.25f * s;
}

__attribute__((noinline)) float middle(float x, __global const float *restrict w, int n)
{
    float acc = x;
    for (int i = 0; i < n; ++i)
        acc = leaf_scale(acc + w[i], 1.0f + (float)i * 0.125f);
    return acc;
}

__attribute__((noinline)) float top(float x, __global const float *restrict w, int n)
{
    float a = middle(x, w, n);
    float b = middle(a * 0.5f, w + n, n);
    return a * b;
}

__attribute__((noinline)) float private_hist(__global const uint *restrict v, int n)
{
    float bins[8];
    for (int b = 0; b < 8; ++b)
        bins[b] = 0.0f;
    for (int i = 0; i < n; ++i)
        bins[v[i] & 7u] += 1.0f;
    float best = 0.0f;
    for (int b = 0; b < 8; ++b)
        best = fmax(best, bins[b] * (float)(b + 1));
    return best;
}

__attribute__((noinline)) ulong div_mix(ulong a, ulong b)
{
    return a / (b | 1ul) + a % (b | 3ul);
}

__attribute__((noinline)) int bump(volatile __global int *counter, __global int *maxv, int v)
{
    int old = atomic_add(counter, v);
    atomic_max(maxv, old + v);
    return old;
}

__attribute__((noinline)) int collatz_steps(uint x, int limit)
{
    int steps = 0;
    do {
        ++steps;
        if ((x & 1u) == 0u) {
            x >>= 1;
            continue;
        }
        x = 3u * x + 1u;
    } while (x != 1u && steps < limit);
    return steps;
}

__attribute__((noinline)) float4 mix4(float4 a, float4 b, float4 t)
{
    return a + (b - a) * t;
}

__kernel void fn_chain(__global const float *restrict x, __global const float *restrict w,
                       __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    out[i] = top(x[i], w, n);
}

__kernel void fn_private_hist(__global const uint *restrict v, __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    out[i] = private_hist(v + i * n, n);
}

__kernel void fn_div_atomics(__global const ulong *restrict a, __global ulong *restrict out,
                             volatile __global int *counter, __global int *maxv)
{
    const int i = get_global_id(0);
    ulong q = div_mix(a[i], a[i + 1]);
    int slot = bump(counter, maxv, (int)(q & 15ul));
    out[i] = q + (ulong)slot;
}

__kernel void fn_collatz(__global const uint *restrict v, __global int *restrict out, int limit)
{
    const int i = get_global_id(0);
    out[i] = collatz_steps(v[i] | 1u, limit);
}

__kernel void fn_vec_branch(__global const float4 *restrict a, __global const float4 *restrict b,
                            __global float4 *restrict out, float t)
{
    const int i = get_global_id(0);
    float4 p = a[i], q = b[i];
    float4 r = p;
    if (p.x > t)
        r = mix4(p, q, (float4)(t));
    out[i] = r * q.w + p;
}
