// Helpers of the cylindrical (body-of-revolution) kernels, cyl_*.cl (docs/CYLINDRICAL.md; the
// contract's equations). Layout: the 3D layout with ny = 1 (host/model/field_layout.hpp),
// cell (i, k) at i * nzp + k, float4 lanes of 4 consecutive z cells; padding cells (k >= nz) are
// PEC and stay zero; values past the high end (i = nr, k = nz) read as zero. Axis 0 = r, 2 = z.
// Each component buffer holds every mode slot's complex field as separate real and imaginary
// planes: plane p = 2 q + part (part 0 real, 1 imaginary) starts at p * cells (scalars) or
// p * cells4 (float4s), so a float4 load of one part is as coalesced as a real field's.
// Samples (cell units): Er (i+1/2, k), Ephi (i, k), Ez (i, k+1/2), Hr (i, k+1/2),
// Hphi (i+1/2, k+1/2), Hz (i+1/2, k); r = position * dr. Ephi, Ez, Hr of row 0 lie on the axis.
// PML cells: the r slab (rows i >= nr - rhi, every k < nz) and the z slabs of the other rows
// (k < zlo, k >= nz - zhi); cyl_pml_cell numbers them r: the r slab first (rhi x nz, k fastest),
// then per row i < nr - rhi its zlo + zhi z-slab cells (host/engine/cyl/cyl_fields.cpp counts
// them). Their psi auxiliaries (cyl_pml.cl) are complex, 8 per cell and mode slot.
#ifndef CLFDTD_CYL_COMMON_H
#define CLFDTD_CYL_COMMON_H
#include "fdtd_common.h"

/* Per lane: `next` where cell 4 kq + lane lies in [klo, khi), else `old`. */
DEVICE_FN float4 cyl_mask_lanes(float4 next, float4 old, int kq, int klo, int khi) {
  const int k0 = 4 * kq;
  return MAKE_FLOAT4(k0 >= klo && k0 < khi ? next.x : old.x,
                     k0 + 1 >= klo && k0 + 1 < khi ? next.y : old.y,
                     k0 + 2 >= klo && k0 + 2 < khi ? next.z : old.z,
                     k0 + 3 >= klo && k0 + 3 < khi ? next.w : old.w);
}

/* PML cell number r -> (i, k) (the numbering above). */
DEVICE_FN void cyl_pml_cell(int r, int nr, int nz, int rhi, int zlo, int zhi, int* i, int* k) {
  if (r < rhi * nz) {
    const int q = r / nz;
    *i = nr - rhi + q;
    *k = r - q * nz;
    return;
  }
  r -= rhi * nz;
  const int w = zlo + zhi; /* > 0: cells are left only when the z slabs exist */
  const int q = r / w, kr = r - q * w;
  *i = q;
  *k = kr < zlo ? kr : nz - zhi + (kr - zlo);
}

/* The CPML stretch of one difference quotient g = diff / d (docs/CYLINDRICAL.md): with
   t = (inv_kappa, b, c, 0), psi <- b psi + c g, then inv_kappa g + psi. */
DEVICE_FN float cyl_stretch(float g, float4 t, GLOBAL float* RESTRICT psi, int at) {
  const float p = t.y * psi[at] + t.z * g;
  psi[at] = p;
  return t.x * g + p;
}

#endif /* CLFDTD_CYL_COMMON_H */
