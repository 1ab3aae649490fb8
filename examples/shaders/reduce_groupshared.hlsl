// Sum reduction in HLSL: groupshared tree reduction of 256 floats, one atomic-free write per group.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> partial : register(u0);
groupshared float sums[256];

[numthreads(256, 1, 1)]
void main(uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint3 did : SV_DispatchThreadID)
{
    sums[tid.x] = input[did.x];
    GroupMemoryBarrierWithGroupSync();
    [unroll]
    for (uint s = 128; s > 0; s >>= 1)
    {
        if (tid.x < s)
            sums[tid.x] += sums[tid.x + s];
        GroupMemoryBarrierWithGroupSync();
    }
    if (tid.x == 0)
        partial[gid.x] = sums[0];
}
