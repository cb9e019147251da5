// Halo exchange between ranks (host/parallel/halo_exchange.hpp): copies a box of two field
// components of the padded 3D layout (phi[(i*ny + j)*nzp + k]) into a contiguous buffer, or back:
// the two components tangential to the face the plane crosses (face_components). The box is cells
// [i0, i0+ni) x [j0, j0+nj) x [k0, k0+nk); buffer order: component slowest, then x, y, z fastest:
// buf[((c*ni + i)*nj + j)*nk + k]. One work-item per cell of the box (count = ni*nj*nk; the host
// rounds the range up to whole groups). Cell offsets are 64-bit (cell_index): a part may hold
// more than 2^31 cells.
#include "fdtd_common.h"

/* The cell of work-item n in the box (z fastest, then y, then x). */
DEVICE_FN long halo_box_cell(int n, int i0, int j0, int k0, int nj, int nk, int ny, int nzp) {
  const int k = n % nk, j = (n / nk) % nj, i = n / (nk * nj);
  return cell_index(i0 + i, j0 + j, k0 + k, ny, nzp);
}

KERNEL void halo_pack(GLOBAL const float* RESTRICT f0, GLOBAL const float* RESTRICT f1,
                      GLOBAL float* RESTRICT buf, int i0, int j0, int k0, int ni, int nj, int nk,
                      int ny, int nzp) {
  const int n = GLOBAL_ID(0);
  const int count = ni * nj * nk;
  if (n >= count) return;
  const long c = halo_box_cell(n, i0, j0, k0, nj, nk, ny, nzp);
  buf[n] = f0[c];
  buf[count + n] = f1[c];
}

/* scale: 1 for a neighbour's plane, -1 for a magnetic wall's mirror image of the part's own H
   (boundary.pmc: tangential H odd about the wall). */
KERNEL void halo_unpack(GLOBAL float* RESTRICT f0, GLOBAL float* RESTRICT f1,
                        GLOBAL const float* RESTRICT buf, int i0, int j0, int k0, int ni, int nj,
                        int nk, int ny, int nzp, float scale) {
  const int n = GLOBAL_ID(0);
  const int count = ni * nj * nk;
  if (n >= count) return;
  const long c = halo_box_cell(n, i0, j0, k0, nj, nk, ny, nzp);
  f0[c] = scale * buf[n];
  f1[c] = scale * buf[count + n];
}

// A Bloch-periodic model's received plane (HaloExchange::bind_turns): pair m is the real part
// a[ia] and the imaginary part b[ia + b_offset], ia = (m / inner) * stride + m % inner, and the
// pair becomes (re + i im) (c + i s). a and b may be one buffer (its two halves), so no RESTRICT.
KERNEL void bloch_turn(GLOBAL float* a, GLOBAL float* b, int pairs, int inner, int stride,
                       int b_offset, float c, float s) {
  const int m = GLOBAL_ID(0);
  if (m >= pairs) return;
  const int ia = (m / inner) * stride + m % inner;
  const float re = a[ia], im = b[ia + b_offset];
  a[ia] = c * re - s * im;
  b[ia + b_offset] = s * re + c * im;
}

// Zeroes the six components over a box (a ghost plane): HaloExchange::clear_ghosts, before the
// energy's sums, so that the ghost cells' values that no owned cell reads (and that the updates
// of the ghost cells carry along from step to step) never enter them.
KERNEL void halo_clear6(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey, GLOBAL float* RESTRICT ez,
                        GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy, GLOBAL float* RESTRICT hz,
                        int i0, int j0, int k0, int ni, int nj, int nk, int ny, int nzp) {
  const int n = GLOBAL_ID(0);
  if (n >= ni * nj * nk) return;
  const long c = halo_box_cell(n, i0, j0, k0, nj, nk, ny, nzp);
  ex[c] = 0.0f;
  ey[c] = 0.0f;
  ez[c] = 0.0f;
  hx[c] = 0.0f;
  hy[c] = 0.0f;
  hz[c] = 0.0f;
}
