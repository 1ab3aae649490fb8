// Source-mapping example: small helpers the compiler inlines into a loop with a branch, so one source
// line's instructions are spread over the kernel and the line table must name the helper's own lines.

static inline float smoothstep01(float x)
{
    const float t = clamp(x, 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

static inline float tap(__global const float *restrict in, int i, int n)
{
    const int j = clamp(i, 0, n - 1);
    return in[j];
}

__kernel void blur_smooth(__global const float *restrict in, __global float *restrict out, int n, int radius)
{
    const int i = get_global_id(0);
    float acc = 0.0f;
    float weight = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        const float w = smoothstep01(1.0f - fabs((float)k) / (float)(radius + 1));
        acc += w * tap(in, i + k, n);
        weight += w;
    }
    if (weight > 0.0f)
        out[i] = acc / weight;
    else
        out[i] = tap(in, i, n);
}
