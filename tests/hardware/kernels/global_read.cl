// Streaming read, the loop shape of clpeak's global bandwidth test (isalens' own code): each work-item
// reads 16 elements of type T, consecutive work-items reading consecutive elements (a wave's loads are
// coalesced), the 16 reads a work-group apart, and stores one sum.
#ifndef T
#define T float
#endif
#define READS 16

__kernel void global_read(__global const T *src, __global T *dst) {
    uint stride = get_local_size(0);
    uint at = get_group_id(0) * stride * READS + get_local_id(0);
    T sum = (T)0;
    __attribute__((opencl_unroll_hint(1)))
    for (int i = 0; i < READS; i++) {
        sum += src[at];
        at += stride;
    }
    dst[get_global_id(0)] = sum;
}
