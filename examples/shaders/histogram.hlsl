// Luminance histogram in HLSL: 16x16 threads bin an image's luminance (log2 range from a constant
// buffer) into 256 groupshared counters, then add them to the global histogram.
Texture2D<float4> scene : register(t0);
RWByteAddressBuffer histogram : register(u0);

cbuffer Params : register(b0)
{
    uint2 size;
    float min_log_luminance;
    float inv_log_range;
};

groupshared uint bins[256];

uint bin_of(float3 rgb)
{
    float lum = dot(rgb, float3(0.2126, 0.7152, 0.0722));
    if (lum < 0.005)
        return 0;
    float t = saturate((log2(lum) - min_log_luminance) * inv_log_range);
    return (uint)(t * 254.0 + 1.0);
}

[numthreads(16, 16, 1)]
void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex)
{
    bins[index] = 0;
    GroupMemoryBarrierWithGroupSync();
    if (all(id.xy < size))
    {
        uint b = bin_of(scene.Load(int3(id.xy, 0)).rgb);
        InterlockedAdd(bins[b], 1);
    }
    GroupMemoryBarrierWithGroupSync();
    histogram.InterlockedAdd(index * 4, bins[index]);
}
