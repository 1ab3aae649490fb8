// Functions no code in the file calls, whose loops walk pointers (the shapes of Rodinia's particle_double.cl
// cdfCalc and calcLikelihoodSum, written anew): after the loop a pointer's last increment is read by nothing,
// which looks like a result set up for the caller, but LLVM returns only the function's value (v0, v[0:1],
// nothing for void), so the walked pointers are dead in the blocks between the loop and the return.

// void: both pointers (v[0:1], v[2:3]) are advanced in the loop; the return reads no VGPR.
void running_total(__global double *out, __global const double *in, int n)
{
    double s = in[0];
    out[0] = s;
    for (int k = 1; k < n; ++k) {
        s += in[k];
        out[k] = s;
    }
}

// double: the sum stays in v[0:1], the index pointer arrives in v[2:3] and is advanced in the loop.
double squared_offsets(__global const uchar *img, __global const int *ind, int n, int row)
{
    double s = 0.0;
    for (int k = 0; k < n; ++k) {
        const int p = ind[row * n + k];
        s += (double)((img[p] - 100) * (img[p] - 100) - (img[p] - 228) * (img[p] - 228)) / 50.0;
    }
    return s;
}

// float: the pointer in v[0:1] is advanced, the sum is copied into v0 before the return.
float sum_abs(__global const float *a, int n)
{
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
        s += fabs(a[k]);
    return s;
}

__kernel void use_loops(__global double *out, __global const double *in, __global const uchar *img,
                        __global const int *ind, __global float *f)
{
    const int i = get_global_id(0);
    running_total(out + 64 * i, in + 64 * i, i & 63);
    f[i] = (float)squared_offsets(img, ind, i & 15, i) + sum_abs(f + i, i & 7);
}
