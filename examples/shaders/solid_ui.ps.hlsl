// UI quad in HLSL: a constant tint times a texture's alpha (one input, one output).
Texture2D<float4> glyphs : register(t0);
SamplerState linear_clamp : register(s0);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target0
{
    return float4(1.0, 0.85, 0.3, 1.0) * glyphs.Sample(linear_clamp, uv).a;
}
