// Local (LDS) atomics: a bucketed queue where atomic_inc results pick the slot, a
// local counter whose result is unused, and a spin-free cmpxchg update on LDS.

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void local_queue(__global const int *restrict keys, __global int *restrict out, __global int *restrict sizes)
{
    __local int queue[4][64];
    __local uint fill[4];
    const int lid = get_local_id(0);
    if (lid < 4)
        fill[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int key = keys[get_global_id(0)];
    const int bucket = key & 3;
    const uint slot = atomic_inc(&fill[bucket]);
    queue[bucket][slot] = key;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = queue[lid / 16][lid % 16];
    if (lid < 4)
        sizes[get_group_id(0) * 4 + lid] = fill[lid];
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void local_count_unused(__global const float *restrict in, __global int *restrict out)
{
    __local int counter;
    __local int total;
    const int lid = get_local_id(0);
    if (lid == 0) {
        counter = 0;
        total = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const float v = in[get_global_id(0)];
    if (v > 0.5f)
        atomic_add(&counter, 1);
    atomic_add(&total, (int)v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        out[get_group_id(0)] = counter * 1000 + total;
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void local_cmpxchg_min(__global const int *restrict in, __global int *restrict out)
{
    __local int best;
    const int lid = get_local_id(0);
    if (lid == 0)
        best = 0x7fffffff;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int v = in[get_global_id(0)];
    int old = best;
    while (v < old) {
        const int prev = atomic_cmpxchg(&best, old, v);
        if (prev == old)
            break;
        old = prev;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = best - v;
}
