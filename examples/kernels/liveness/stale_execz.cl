// A binary search whose hit test is nested three deep (the shape of Rodinia's particle findIndexBin, written
// anew): the innermost "then" part is two compares and two mask writes, short enough that llc-19's
// SIPreEmitPeephole deletes its s_cbranch_execz and the edge around it after register allocation. The block
// above keeps the live-ins that edge needed (the break flags LLVM's structurizer keeps in SGPR pairs), although
// its one successor now writes those pairs with scalar instructions, which run whatever EXEC is, before any read.

// Index of the first key >= x in the sorted keys[lo..hi], -1 when there is none; the exact hit is walked back
// over equal keys.
int first_at_least(__global const float *keys, int lo, int hi, float x)
{
    if (hi < lo)
        return -1;
    while (hi > lo) {
        const int mid = lo + (hi - lo) / 2;
        const float k = keys[mid];
        if (k >= x) {
            if (mid == 0)
                return 0;
            const float before = keys[mid - 1];
            if (before < x)
                return mid;
            if (before == x) {
                int j = mid;
                while (j >= 0 && keys[j] == x)
                    --j;
                return j + 1;
            }
        }
        if (k > x)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

__kernel void bucket_of(__global const float *keys, __global const float *xs, __global int *out, int n)
{
    const int i = get_global_id(0);
    out[i] = first_at_least(keys, 0, n - 1, xs[i]);
}

// The same search with the walk-back after the loop: the loop only sets where it stopped.
int last_below(__global const double *keys, int lo, int hi, double x)
{
    int found = -1, hit = -1;
    while (hi > lo) {
        const int mid = lo + (hi - lo) / 2;
        const double k = keys[mid];
        if (k >= x) {
            if (mid == 0) {
                found = 0;
                break;
            }
            const double before = keys[mid - 1];
            if (before < x) {
                found = mid;
                break;
            }
            if (before == x) {
                hit = mid;
                break;
            }
        }
        if (k > x)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    if (hit >= 0) {
        int j = hit;
        while (keys[j] == x && j >= 0)
            --j;
        found = j + 1;
    }
    return found;
}
