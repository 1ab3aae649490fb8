// Calls under the AMDGPU calling convention: known callees that save and restore registers in their
// prologue/epilogue, calls inside divergent regions (the saved EXEC mask lives across the call), kernel
// arguments read after a call, and calls to a function defined elsewhere whose arguments are set up in
// an earlier block. Unknown calls go through a function pointer (clang's __cl_clang_function_pointers,
// OpenCL C 2.0), as a call to a function defined elsewhere would.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable

__attribute__((noinline)) float heavy(float x, float y, int k)
{
    // enough live values that the callee uses callee-saved VGPRs and SGPRs it must save
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) {
        acc = acc * x + y;
        if (acc > 100.0f)
            acc -= y * 3.0f;
        else
            acc += x * 0.5f;
    }
    return acc;
}

__attribute__((noinline)) float twice(float x, int k)
{
    return heavy(x, x * 2.0f, k) + heavy(x * 0.5f, x, k + 1);
}

__kernel void call_in_divergent_if(__global const float *restrict in, __global float *restrict out,
                                   int n, float bias)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (i < n) {
        v = twice(v, n);
    }
    out[i] = v + bias * (float)n;
}

__attribute__((noinline)) float step_a(float x, int k)
{
    return x * (float)k + 1.0f;
}

__attribute__((noinline)) float step_b(float x, int k)
{
    return x - (float)(k * 3);
}

__kernel void call_unknown(__global const float *restrict in, __global float *restrict out, int n, float bias,
                           int which)
{
    const int i = get_global_id(0);
    float (*external_step)(float, int) = which ? step_a : step_b;
    // the argument is computed in another block than the call
    float x = in[i];
    if (x > 0.0f)
        x = x * bias;
    else
        x = -x + bias;
    float r = external_step(x, n);
    if (i < n)
        r += external_step(r, i);
    out[i] = r + bias;
}

__kernel void call_loop(__global const float *restrict in, __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
        s += heavy(in[i + k], s, k & 3);
    out[i] = s;
}

// The argument of a call through a pointer is set in the branch before the call's block (a load in the
// branch keeps it from becoming a select): the call reads it although no copy sits next to it.
__kernel void call_arg_from_branch(__global const float *restrict in, __global float *restrict out, int n,
                                   int which)
{
    const int i = get_global_id(0);
    float (*f)(float, int) = which ? step_a : step_b;
    float x = in[i];
    if (x > 0.0f)
        x = in[i + n] * x;
    out[i] = f(x, n) + 1.0f;
}

// The same inside a function: a non-kernel caller of an unknown function.
__attribute__((noinline)) float call_through(float (*f)(float, int), __global const float *p, float x, int k)
{
    if (x > 0.0f)
        x = p[k] * x;
    return f(x, k) * 2.0f;
}

__kernel void call_via_function(__global const float *restrict in, __global float *restrict out, int n,
                                int which)
{
    const int i = get_global_id(0);
    out[i] = call_through(which ? step_a : step_b, in, in[i], n + i);
}
