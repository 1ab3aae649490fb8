// Transcendentals: on VLIW5 these go to the t slot; on Cayman they are replicated over x/y/z/w.
__kernel void shade(__global const float4 *in, __global float4 *out)
{
    const size_t i = get_global_id(0);
    const float4 v = in[i];
    float4 r;
    r.x = native_sqrt(v.x) + native_recip(v.y);
    r.y = native_exp2(v.z) * native_log2(v.w + 2.0f);
    r.z = native_sin(v.x) * native_cos(v.y);
    r.w = native_rsqrt(v.z * v.z + v.w * v.w + 1.0f);
    out[i] = r * 0.25f + (float4)(1.5f, -2.0f, 3.25f, 0.125f);
}
