// Divergence check (MEEP's step ends with one): sets *flag to 1 when any value of the six fields
// is NaN or infinite. One work-item per float4 of every component; count4 = nx * ny * nz4.
// The host clears the flag, launches, reads one int. Bytes: 96 per float4 (24 per cell).
#include "fdtd_common.h"

KERNEL void check_finite(GLOBAL const float4* RESTRICT ex, GLOBAL const float4* RESTRICT ey,
                         GLOBAL const float4* RESTRICT ez, GLOBAL const float4* RESTRICT hx,
                         GLOBAL const float4* RESTRICT hy, GLOBAL const float4* RESTRICT hz,
                         GLOBAL int* RESTRICT flag, int count4) {
  const int n = GLOBAL_ID(0);
  if (n >= count4) return;
  const int ok = finite4(ex[n]) && finite4(ey[n]) && finite4(ez[n]) && finite4(hx[n]) &&
                 finite4(hy[n]) && finite4(hz[n]);
  // Rare path: the atomic is reached only once something diverged.
  if (!ok) ATOMIC_OR(flag, 1);
}
