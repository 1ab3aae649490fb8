// Vector geometry: dot products (DOT4 over x/y/z/w), a reciprocal square root and a cross product.
__kernel void reflect_dir(__global const float4 *n, __global const float4 *d, __global float4 *out)
{
    const size_t i = get_global_id(0);
    const float4 nn = n[i];
    const float4 dd = d[i];
    const float inv = native_rsqrt(dot(nn, nn));
    const float4 u = nn * inv;
    const float4 r = dd - 2.0f * dot(dd, u) * u;
    out[i] = (float4)(cross(r.xyz, u.xyz), dot(r, r));
}
