// Vignette and film grain as an HLSL pixel shader on top of a scene texture.
Texture2D<float4> scene : register(t0);
SamplerState point_clamp : register(s0);
cbuffer Post : register(b0) { float intensity; float grain; float time; };

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target0
{
    float4 c = scene.Sample(point_clamp, uv);
    float2 d = uv - 0.5;
    float v = 1.0 - intensity * dot(d, d) * 2.0;
    float n = frac(sin(dot(uv * 1000.0 + time, float2(12.9898, 78.233))) * 43758.5453) - 0.5;
    return float4(c.rgb * v + n * grain, c.a);
}
