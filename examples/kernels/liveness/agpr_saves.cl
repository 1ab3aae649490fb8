// A function (no code here calls it) that needs more than 40 VGPRs: v40 and up are saved by the callee in
// LLVM 19's calling convention, and on gfx90a, whose AGPRs the function leaves free, llc-19 saves them into
// AGPRs (v_accvgpr_write a0, v40 at the entry, v_accvgpr_read back before the return) instead of to scratch.
// SILowerSGPRSpills makes every such AGPR a live-in of every block, the entry block included, where the
// AGPRs are written before any read (the caller's values in a0.. are not preserved: they are caller-saved).
float4 churn(__global const float16 *a, int n)
{
    float16 x = a[0], y = a[1], z = a[2];
    for (int k = 0; k < n; ++k) {
        x = mad(x, y, z);
        y = mad(y, z, x);
        z = mad(z, x, y);
    }
    const float16 s = x + y * z;
    return s.lo.lo + s.lo.hi + s.hi.lo + s.hi.hi;
}
