// 64-bit integer arithmetic: a 64-bit hash (multiply, xor-shift), 64-bit division and
// remainder by a runtime divisor, and 64-bit counting/rotates.

__kernel void splitmix64(__global const ulong *restrict seeds, __global ulong *restrict out, int rounds)
{
    const int i = get_global_id(0);
    ulong z = seeds[i];
    for (int r = 0; r < rounds; ++r) {
        z += 0x9e3779b97f4a7c15UL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
        z ^= z >> 31;
    }
    out[i] = z;
}

__kernel void divmod64(__global const long *restrict num, __global const long *restrict den,
                       __global long2 *restrict out)
{
    const int i = get_global_id(0);
    const long d = den[i];
    const long q = d != 0 ? num[i] / d : 0;
    const long r = d != 0 ? num[i] % d : num[i];
    out[i] = (long2)(q, r);
}

__kernel void bits64(__global const ulong *restrict in, __global uint4 *restrict out)
{
    const int i = get_global_id(0);
    const ulong v = in[i];
    const ulong rot = rotate(v, (ulong)(i & 63));
    out[i] = (uint4)((uint)popcount(v), (uint)clz(v), (uint)(rot >> 32), (uint)mul_hi(v, rot));
}
