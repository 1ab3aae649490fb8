// If/else shapes in which LLVM moves the saved EXEC mask to another SGPR pair between the "then" and the
// "else" part (issue 30 item 3): the mask saved by s_and_saveexec is moved by s_xor to the pair the else
// switch reads, and the else switch itself comes apart (s_or_saveexec ... s_xor exec) when the compiler
// schedules scalar loads between its halves. In each, the "then" part ends with an `; implicit-def:` of a
// register the "else" part reads: the lanes running "else" keep it from before the if.

// The else part scales by a table entry whose address is loaded between the two halves of its switch.
__kernel void root_or_square(__global const float *restrict in, __global float *restrict out,
                             __global const float *restrict scale, int at)
{
    const int i = get_global_id(0);
    const float x = in[i];
    float y;
    if (x > 1.0f)
        y = sqrt(x) * scale[at];
    else
        y = x * x;
    out[i] = x > 1.0f ? y : y + scale[at + 1];
}

// The condition is kept for a second if, so the mask of the first moves to another pair.
__kernel void quotient_or_fallback(__global const long *restrict num, __global const long *restrict den,
                                   __global long *restrict out, long fallback)
{
    const int i = get_global_id(0);
    const long d = den[i];
    const long q = d != 0 ? num[i] / d : fallback;
    const long r = d != 0 ? q * 3 : num[i + 1];
    out[i] = q + r;
}

// The same shapes inside a loop, the else part reading a value the then part leaves undefined.
__kernel void steps(__global const float *restrict in, __global float *restrict out,
                    __global const float *restrict table, int n)
{
    const int i = get_global_id(0);
    float acc = in[i], carry = 0.5f;
    for (int k = 0; k < n; ++k) {
        const float v = in[i + k];
        float y;
        if (v > carry)
            y = sqrt(v) * table[k];
        else
            y = v * acc;
        acc += v > carry ? y : y * table[k + 1];
        carry = acc * 0.25f;
    }
    out[i] = acc;
}

__kernel void wide_steps(__global const long *restrict num, __global long *restrict out, int n, long base)
{
    const int i = get_global_id(0);
    long acc = base;
    for (int k = 0; k < n; ++k) {
        const long d = num[i * n + k];
        const long q = d != 0 ? acc / d : base + k;
        acc = d != 0 ? q + d : num[k];
    }
    out[i] = acc;
}
