// Rotated loops (the compiler tests the exit condition at the bottom) whose bodies branch on
// per-lane data, so EXEC-masked regions sit inside loops and the join of a region can lie above the
// instruction that opened it in listing order.

__kernel void rotated_divergent(__global const float *restrict in, __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    float acc = 0.0f, alt = 1.0f;
    int k = 0;
    do {
        const float x = in[(i + k) % n];
        if (x > 0.5f)
            acc += x * alt;
        else
            alt = alt * 0.5f + x;
        ++k;
    } while (k < n && acc < 100.0f);
    float acc2 = acc;
    int m = i & 7;
    do {
        const float y = in[(m * 3 + i) % n];
        if (y < acc2)
            acc2 = acc2 * y + alt;
        ++m;
    } while (m < n && acc2 > -50.0f);
    out[i] = acc + acc2;
}

__kernel void two_loops_shared_values(__global const int *restrict in, __global int *restrict out, int n,
                                      int bias)
{
    const int i = get_global_id(0);
    int a = in[i], b = in[i + n], c = bias;
    for (int k = 0; k < n; ++k) {
        if ((a >> (k & 15)) & 1)
            b += in[(k * 7 + i) % n] ^ c;
        c = c * 3 + k;
    }
    for (int k = i & 3; k < n; k += 2) {
        if (b & (1 << (k & 7)))
            a += b - in[k % n];
        else
            a ^= c;
    }
    out[i] = a + b + c;
}
