// Sprite batching in HLSL: per-vertex position, uv and colour through a constant-buffer projection.
cbuffer Projection : register(b0) { float4x4 ortho; };
struct VSIn { float2 pos : POSITION; float2 uv : TEXCOORD0; float4 color : COLOR0; };
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; float4 color : COLOR0; };

VSOut main(VSIn v)
{
    VSOut o;
    o.pos = mul(ortho, float4(v.pos, 0, 1));
    o.uv = v.uv;
    o.color = v.color;
    return o;
}
