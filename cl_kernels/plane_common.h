// Helpers of the 2D (x-y plane) kernels, plane_*.cl. Layout (host/model/field_layout.hpp
// xy_plane): rows along y padded to nyp = 4 * ny4, phi[i * nyp + j]; float4 lane index
// i * ny4 + jq holds cells 4jq .. 4jq+3 of row i. Padding cells (j >= ny) are PEC and stay zero;
// values past the high end (index nx or ny) read as zero.
// PML cells are those of the x and y slabs (i < xlo, i >= nx - xhi, j < ylo, j >= ny - yhi).
// Their auxiliaries are compact, one float per PML cell and component, numbered r:
// the x-low slab (xlo x ny cells, j fastest), the x-high slab (xhi x ny), then per row i between
// them its ylo + yhi y-slab cells (host/engine/plane/plane_fields.hpp counts them).
#ifndef CLFDTD_PLANE_COMMON_H
#define CLFDTD_PLANE_COMMON_H
#include "fdtd_common.h"

/* Per lane: `next` where cell 4jq + lane lies in [jlo, jhi), else `old` (the lane is a PML or a
   padding cell, which other kernels own or nobody updates). */
DEVICE_FN float4 plane_mask_lanes(float4 next, float4 old, int jq, int jlo, int jhi) {
  const int j0 = 4 * jq;
  return MAKE_FLOAT4(j0 >= jlo && j0 < jhi ? next.x : old.x,
                     j0 + 1 >= jlo && j0 + 1 < jhi ? next.y : old.y,
                     j0 + 2 >= jlo && j0 + 2 < jhi ? next.z : old.z,
                     j0 + 3 >= jlo && j0 + 3 < jhi ? next.w : old.w);
}

/* PML cell number r -> (i, j) (the numbering above). */
DEVICE_FN void plane_pml_cell(int r, int nx, int ny, int xlo, int xhi, int ylo, int yhi, int* i,
                              int* j) {
  if (r < xlo * ny) {
    *i = r / ny;
    *j = r - *i * ny;
    return;
  }
  r -= xlo * ny;
  if (r < xhi * ny) {
    const int q = r / ny;
    *i = nx - xhi + q;
    *j = r - q * ny;
    return;
  }
  r -= xhi * ny;
  const int w = ylo + yhi; /* > 0: cells are left only when the y slabs exist */
  const int q = r / w, jr = r - q * w;
  *i = xlo + q;
  *j = jr < ylo ? jr : ny - yhi + (jr - ylo);
}

/* The neutral profile (a, b, cp, cm) of an axis without layers: the z axis in 2D. */
DEVICE_FN float4 plane_neutral(void) { return MAKE_FLOAT4(1.0f, 1.0f, 2.0f, 2.0f); }

#endif /* CLFDTD_PLANE_COMMON_H */
