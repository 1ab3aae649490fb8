// Global atomics: a counter whose old value is used (stream compaction), one whose
// result is discarded (no-return form), and a float max built on atomic_cmpxchg.

__kernel void compact_positive(__global const float *restrict in, __global float *restrict out,
                               volatile __global int *restrict count, int n)
{
    const int i = get_global_id(0);
    if (i < n) {
        const float v = in[i];
        if (v > 0.0f) {
            const int slot = atomic_add(count, 1);
            out[slot] = v;
        }
    }
}

__kernel void count_matches(__global const int *restrict in, int key, volatile __global int *restrict hits,
                            volatile __global uint *restrict seen)
{
    const int i = get_global_id(0);
    if (in[i] == key)
        atomic_add(hits, 1);
    atomic_inc(seen);
}

__kernel void atomic_max_float(__global const float *restrict in, volatile __global int *restrict best, int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float v = in[i];
    int old = *best;
    while (as_float(old) < v) {
        const int prev = atomic_cmpxchg(best, old, as_int(v));
        if (prev == old)
            break;
        old = prev;
    }
}
