// Functions that no code in the file calls (the kernel's calls are inlined; the external definitions stay, as
// in Rodinia's particle_double.cl), so the module has no call at all. Each returns its result in v0 (v[0:1]
// for the double) to callers elsewhere: LLVM 19's return reads them, and the blocks between their last write
// and the return hold them live.

// The result is written in the "then" part only (else the argument comes back): live into the join.
float root_scaled(float x, int n)
{
    if (n > 3)
        x = sqrt(x) * x;
    return x;
}

// The sum is copied into v0 before the return; the pointer incremented in the loop is not a result.
float sum_sq(__global const float *a, int n)
{
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
        s += a[k] * a[k];
    return s;
}

// The double sum stays in v[0:1] through the loop and the two blocks that restore EXEC before the return.
double weighted(__global const int *idx, int n)
{
    double s = 0.0;
    for (int k = 0; k < n; ++k)
        s += (double)(idx[k] - 100) * (double)(idx[k] - 100) / 50.0;
    return s;
}

__kernel void use_helpers(__global const float *a, __global const int *idx, __global float *out)
{
    const int i = get_global_id(0);
    out[i] = root_scaled(a[i], i) + sum_sq(a, i) + (float)weighted(idx, i);
}
