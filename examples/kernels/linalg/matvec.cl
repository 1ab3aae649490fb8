// Small dense linear-algebra kernels without LDS: a matrix-vector product with a
// runtime-length inner loop and a 4x4 matrix transform of float4 points.

__kernel void matvec(__global const float *restrict mat, __global const float *restrict x,
                     __global float *restrict y, int rows, int cols)
{
    const int r = get_global_id(0);
    if (r >= rows)
        return;
    float s0 = 0.0f, s1 = 0.0f;
    int c = 0;
    for (; c + 1 < cols; c += 2) {
        s0 = fma(mat[r * cols + c], x[c], s0);
        s1 = fma(mat[r * cols + c + 1], x[c + 1], s1);
    }
    if (c < cols)
        s0 = fma(mat[r * cols + c], x[c], s0);
    y[r] = s0 + s1;
}

__kernel void transform_points(__global const float4 *restrict pts, __constant float4 *restrict m,
                               __global float4 *restrict out, int count)
{
    const int i = get_global_id(0);
    if (i < count) {
        const float4 p = pts[i];
        float4 q = m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3] * p.w;
        out[i] = q / q.w;
    }
}
