// Separable 9-tap Gaussian blur pass as an HLSL pixel shader; the direction and texel size come from a
// constant buffer, the weights are compile-time constants.
Texture2D<float4> source : register(t0);
SamplerState linear_clamp : register(s0);

cbuffer Blur : register(b0)
{
    float2 direction;  // (1/width, 0) or (0, 1/height)
};

static const float weights[5] = { 0.2270270, 0.1945946, 0.1216216, 0.0540541, 0.0162162 };

float4 main(float4 position : SV_Position, float2 uv : TEXCOORD0) : SV_Target0
{
    float4 sum = source.Sample(linear_clamp, uv) * weights[0];
    [unroll]
    for (int i = 1; i < 5; ++i)
    {
        float2 offset = direction * i;
        sum += source.Sample(linear_clamp, uv + offset) * weights[i];
        sum += source.Sample(linear_clamp, uv - offset) * weights[i];
    }
    return sum;
}
