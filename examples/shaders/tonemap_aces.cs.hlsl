// ACES filmic tone mapping of an HDR texture into an 8-bit storage texture, HLSL compute.
Texture2D<float4> hdr : register(t0);
RWTexture2D<float4> ldr : register(u0);
cbuffer Exposure : register(b0) { float exposure; };

float3 aces(float3 x)
{
    return saturate((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14));
}

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 c = hdr.Load(int3(id.xy, 0)).rgb * exposure;
    ldr[id.xy] = float4(pow(aces(c), 1.0 / 2.2), 1.0);
}
