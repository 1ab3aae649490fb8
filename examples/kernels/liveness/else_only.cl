// A register the "else" part of an if/else reads, which the "then" part reuses (Rodinia's cfd compute_flux
// has the shape). Per neighbour a three-way branch (LLVM's LowerSwitch makes it an if/else whose "then" part
// holds another if/else): the "then" part (nb < 0) reads the neighbour's normal and then writes other values
// into its registers; the "else" part (nb >= 0) reads the normal too. The lanes of the "then" part are off in
// the "else" part, so what they leave in those registers is never read: LLVM's SIOptimizeVGPRLiveRange makes
// such a value undefined on the way out of the "then" part, and on gfx90a llc-19 leaves no `; implicit-def:`
// line for it there (the register's last write in the "then" part stands in for the undefined value).
__kernel void edge_flux(__global const int *restrict nbr, __global const float *restrict nrm,
                        __global const float *restrict val, __constant float *restrict far,
                        __global float *restrict out, int n)
{
    const int i = get_global_id(0);
    const float own = val[i];
    float acc = 0.0f, accx = 0.0f, accy = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const int nb = nbr[i + j * n];
        const float nx = nrm[i + j * n], ny = nrm[i + (j + 4) * n];
        const float len = sqrt(nx * nx + ny * ny);
        if (nb >= 0) {
            const float v = val[nb], vx = val[nb + n], vy = val[nb + 2 * n];
            const float f = -len * 0.25f * (own + sqrt(fabs(v)));
            acc += f * (own - v) + 0.5f * nx * (vx + own);
            accx += 0.5f * ny * (vy * vx + own);
            accy += 0.5f * nx * vy;
        } else if (nb == -1) {
            accx += nx * own;
            accy += ny * own;
        } else if (nb == -2) {
            const float fx = 0.5f * nx, fy = 0.5f * ny;
            acc += fx * (far[0] + own) + fy * (far[1] + own);
            accx += fx * (far[2] + ny);
            accy += fy * (far[3] + nx);
        }
    }
    out[i] = acc;
    out[i + n] = accx;
    out[i + 2 * n] = accy;
}
