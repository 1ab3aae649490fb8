// Nested branches on integers: predication, ALU_PUSH_BEFORE / JUMP / ELSE / POP, integer ops.
__kernel void classify(__global const int *in, __global int *out, int threshold)
{
    const int i = get_global_id(0);
    const int v = in[i];
    int r;
    if (v > threshold) {
        if ((v & 1) != 0)
            r = mul24(v, 3) + 1;
        else
            r = v >> 1;
    } else if (v < -threshold) {
        r = (v * v) ^ 0x5bd1e995;
    } else {
        r = mad24(v, threshold, 7) | 0x100;
    }
    out[i] = r;
}
