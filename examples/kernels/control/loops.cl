// Loops with data-dependent trip counts: a Collatz walk (while), nested loops with a
// triangular inner bound, and a do-while with break and continue.

__kernel void collatz_steps(__global const uint *restrict seeds, __global uint *restrict steps)
{
    const int i = get_global_id(0);
    ulong x = seeds[i];
    uint count = 0;
    while (x != 1 && count < 10000) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++count;
    }
    steps[i] = count;
}

__kernel void triangular_sum(__global const float *restrict a, __global float *restrict out, int n)
{
    const int row = get_global_id(0);
    if (row >= n)
        return;
    float total = 0.0f;
    for (int i = 0; i <= row; ++i) {
        float inner = 0.0f;
        for (int j = i; j <= row; j += 3)
            inner += a[i * n + j];
        total += inner * (float)(i + 1);
    }
    out[row] = total;
}

__kernel void skip_and_stop(__global const int *restrict data, __global int *restrict out, int n, int limit)
{
    const int i = get_global_id(0);
    int j = i;
    int acc = 0;
    int visited = 0;
    do {
        const int d = data[j % n];
        j += 7;
        ++visited;
        if (d < 0)
            continue;
        if (d > limit)
            break;
        acc += d;
    } while (visited < n);
    out[i] = acc * 16 + visited;
}
