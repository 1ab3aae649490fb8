// Function pointers (clang's __cl_clang_function_pointers extension, OpenCL C 2.0 so the pointer may
// point to the generic address space): an indirect call whose target the code does not name.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable

__attribute__((noinline)) float scale_up(float x)
{
    return x * 4.0f + 1.0f;
}

__attribute__((noinline)) float scale_down(float x)
{
    return x * 0.25f - 1.0f;
}

__kernel void call_pointer(__global const float *restrict in, __global float *restrict out, int which)
{
    const int i = get_global_id(0);
    float (*f)(float) = which ? scale_up : scale_down;
    out[i] = f(in[i]);
}
