// Kernels that call functions the compiler keeps out of line: a noinline helper called from two
// kernels, a chain of helpers, a recursive helper (clang accepts it; OpenCL C leaves recursion to the
// implementation) and a helper with divergent control flow and many live values across the call.

__attribute__((noinline)) float poly(float x, float a, float b)
{
    return (x * a + b) * x + a * b;
}

__attribute__((noinline)) float smooth(float x, __global const float *restrict table, int n)
{
    float acc = 0.0f;
    for (int i = 0; i < n; ++i)
        acc += table[i] * poly(x, (float)i, acc);
    return acc;
}

__attribute__((noinline)) uint fib(uint n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) float4 blend(float4 a, float4 b, float t)
{
    if (t < 0.5f)
        return a * (1.0f - t) + b * t;
    return a * b + (float4)(t);
}

__kernel void call_poly(__global const float *restrict in, __global float *restrict out)
{
    const int i = get_global_id(0);
    float x = in[i];
    out[i] = poly(x, 2.0f, 3.0f) + poly(x * x, x, 1.0f);
}

__kernel void call_chain(__global const float *restrict in, __global const float *restrict table,
                         __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    float x = in[i];
    float y = smooth(x, table, n);
    out[i] = x * y + poly(y, x, 0.5f);
}

__kernel void call_recursive(__global const uint *restrict in, __global uint *restrict out)
{
    const int i = get_global_id(0);
    out[i] = fib(in[i] & 15u);
}

__kernel void call_live_across(__global const float4 *restrict a, __global const float4 *restrict b,
                               __global float4 *restrict out, float t)
{
    const int i = get_global_id(0);
    float4 p = a[i], q = b[i];
    float4 r = blend(p, q, t * (float)i);
    float4 s = blend(q, r, t);
    out[i] = r + s * p.x + q * s.y;
}

// Mutual recursion: LLVM reaches one of the two functions while the other is still being visited.
__attribute__((noinline)) uint odd_steps(uint n);

__attribute__((noinline)) uint even_steps(uint n)
{
    return n == 0 ? 0 : 1 + odd_steps(n - 1);
}

__attribute__((noinline)) uint odd_steps(uint n)
{
    return n == 0 ? 100 : 3 + even_steps(n >> 1);
}

__kernel void call_mutual(__global const uint *restrict in, __global uint *restrict out)
{
    const int i = get_global_id(0);
    out[i] = even_steps(in[i] & 31u);
}
