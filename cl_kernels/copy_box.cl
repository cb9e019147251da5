// The six field components of one box of cells, planes [i0, i0 + ni), rows [j0, j0 + nj),
// float4s [q0, q0 + nq), from one field set into the other: the tblock variant with UPML steps
// the cells outside the box its pass stores in place on the current fields, then moves them into
// the next ones here (engine/plan.hpp TBlockPass). One work-item per float4, 1D over the box
// (its float4s in lane order); bytes: 96 per float4 (six read, six written), on ~13% of the
// cells at N = 512 with 10 layers, once per two steps.
#include "fdtd_common.h"

KERNEL void copy_box(GLOBAL const float4* RESTRICT ex, GLOBAL const float4* RESTRICT ey,
                     GLOBAL const float4* RESTRICT ez, GLOBAL const float4* RESTRICT hx,
                     GLOBAL const float4* RESTRICT hy, GLOBAL const float4* RESTRICT hz,
                     GLOBAL float4* RESTRICT ex_out, GLOBAL float4* RESTRICT ey_out,
                     GLOBAL float4* RESTRICT ez_out, GLOBAL float4* RESTRICT hx_out,
                     GLOBAL float4* RESTRICT hy_out, GLOBAL float4* RESTRICT hz_out, int i0,
                     int j0, int q0, int ni, int nj, int nq, int ny, int nz4) {
  const int n = GLOBAL_ID(0);
  if (n >= ni * nj * nq) return;
  const int q = n % nq, r = n / nq;
  const int c = lane_index(i0 + r / nj, j0 + r % nj, q0 + q, ny, nz4);
  ex_out[c] = ex[c];
  ey_out[c] = ey[c];
  ez_out[c] = ez[c];
  hx_out[c] = hx[c];
  hy_out[c] = hy[c];
  hz_out[c] = hz[c];
}
