// y = a*x + y on float4 vectors: one fetch clause, MULADDs in x/y/z/w.
__kernel void saxpy4(float a, __global const float4 *x, __global float4 *y)
{
    const size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
