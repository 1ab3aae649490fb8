// Advice example (pressure attribution): four floats loaded first and used only at the very end stay
// live across the pressure peak of a 16-product burst without being read there.

__kernel void idle_across_peak(__global const float *restrict in, __global float *restrict out)
{
    const int i = get_global_id(0);
    const float4 keep = vload4(i, in + 65536);
    float t[16];
#pragma unroll
    for (int k = 0; k < 16; ++k)
        t[k] = in[i * 16 + k];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 16; ++k)
        s = fma(t[k], t[15 - k] * t[(k + 3) & 15], s);
    out[i] = s + keep.x * keep.y + keep.z * keep.w;
}
