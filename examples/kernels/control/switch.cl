// Switch statements: a dense switch (likely a jump-free select chain or table) and a
// sparse one inside a loop acting as a tiny bytecode interpreter.

__kernel void dense_switch(__global const int *restrict op, __global const float2 *restrict ab,
                           __global float *restrict out)
{
    const int i = get_global_id(0);
    const float2 v = ab[i];
    float r;
    switch (op[i] & 7) {
    case 0: r = v.x + v.y; break;
    case 1: r = v.x - v.y; break;
    case 2: r = v.x * v.y; break;
    case 3: r = v.x / v.y; break;
    case 4: r = fmin(v.x, v.y); break;
    case 5: r = fmax(v.x, v.y); break;
    case 6: r = fabs(v.x - v.y); break;
    default: r = 0.0f; break;
    }
    out[i] = r;
}

// Stack machine over int registers; opcodes are sparse on purpose.
__kernel void interpret(__global const uchar *restrict code, int code_len, __global const int *restrict input,
                        __global int *restrict out)
{
    const int i = get_global_id(0);
    int acc = input[i];
    int reg = 1;
    for (int pc = 0; pc < code_len; ++pc) {
        const uchar ins = code[pc];
        switch (ins) {
        case 0x01: acc += reg; break;
        case 0x10: reg = acc; break;
        case 0x22: acc *= 3; break;
        case 0x40: acc ^= i; break;
        case 0x81: if (acc < 0) pc += 1; break;
        case 0xfe: reg = -reg; break;
        case 0xff: pc = code_len; break;
        default: break;
        }
    }
    out[i] = acc + reg;
}
