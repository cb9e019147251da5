// Halo exchange between ranks (host/parallel/halo_exchange.hpp): copies a box of two field
// components of the padded 3D layout (phi[(i*ny + j)*nzp + k]) into a contiguous buffer, or back:
// the two components tangential to the face the plane crosses (face_components). The box is cells
// [i0, i0+ni) x [j0, j0+nj) x [k0, k0+nk); buffer order: component slowest, then x, y, z fastest:
// buf[((c*ni + i)*nj + j)*nk + k]. One work-item per cell of the box (count = ni*nj*nk; the host
// rounds the range up to whole groups). Cell offsets are 64-bit (cell_index): a part may hold
// more than 2^31 cells.
#include "fdtd_common.h"

KERNEL void halo_pack(GLOBAL const float* RESTRICT f0, GLOBAL const float* RESTRICT f1,
                      GLOBAL float* RESTRICT buf, int i0, int j0, int k0, int ni, int nj, int nk,
                      int ny, int nzp) {
  const int n = GLOBAL_ID(0);
  const int count = ni * nj * nk;
  if (n >= count) return;
  const int k = n % nk, j = (n / nk) % nj, i = n / (nk * nj);
  const long c = cell_index(i0 + i, j0 + j, k0 + k, ny, nzp);
  buf[n] = f0[c];
  buf[count + n] = f1[c];
}

KERNEL void halo_unpack(GLOBAL float* RESTRICT f0, GLOBAL float* RESTRICT f1,
                        GLOBAL const float* RESTRICT buf, int i0, int j0, int k0, int ni, int nj,
                        int nk, int ny, int nzp) {
  const int n = GLOBAL_ID(0);
  const int count = ni * nj * nk;
  if (n >= count) return;
  const int k = n % nk, j = (n / nk) % nj, i = n / (nk * nj);
  const long c = cell_index(i0 + i, j0 + j, k0 + k, ny, nzp);
  f0[c] = buf[n];
  f1[c] = buf[count + n];
}
