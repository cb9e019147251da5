// The probe samples of step s + 1 computed from the fields of step s, for the tblock variant:
// its pass takes steps s and s + 1 together and never holds the fields of step s + 1 in memory,
// so without this a probe sampled every step would force every step to run alone. Each
// work-item takes one sample (cell entries as sample_probes) and applies the plain Yee updates
// to what it needs: an H sample is H - db curl E at its cell; an E sample is ca E + cb curl H_new,
// with H_new of its own cell and of the -x, -y, -z cells computed the same way, then -cb J[s]
// where a source drives that sample (sample_source >= 0, as add_sources does). Values past the
// grid are zero, as in the update kernels. The host offers this only where no sample's cell or
// neighbours are PML cells (their updates carry auxiliaries: engine/probe_prediction.hpp).
// Bytes: ~40 loads per sample, a few hundred samples at most: nothing beside a pass.
#include "fdtd_common.h"

/* A field at (i, j, k); zero outside the grid. */
DEVICE_FN float pp_at(GLOBAL const float* RESTRICT f, int i, int j, int k, int nx, int ny, int nz,
                      int nzp) {
  if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return 0.0f;
  return f[cell_index(i, j, k, ny, nzp)];
}

/* H component a (0..2 = Hx Hy Hz) of cell (i, j, k) one half step on: H - db curl E. Zero outside
   the grid (the E update's -1 neighbours there are zero too). */
DEVICE_FN float pp_h_next(GLOBAL const float* RESTRICT ex, GLOBAL const float* RESTRICT ey,
                          GLOBAL const float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                          GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                          GLOBAL const uchar* RESTRICT id_hx, GLOBAL const uchar* RESTRICT id_hy,
                          GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
                          float db_vacuum, float inv_dx, float inv_dy, float inv_dz, int a, int i,
                          int j, int k, int nx, int ny, int nz, int nzp) {
  if (i < 0 || j < 0 || k < 0) return 0.0f;
  const long c = cell_index(i, j, k, ny, nzp);
  const float e_x = ex[c], e_y = ey[c], e_z = ez[c];
  float curl, h;
  GLOBAL const uchar* id;
  if (a == 0) {
    curl = (pp_at(ez, i, j + 1, k, nx, ny, nz, nzp) - e_z) * inv_dy -
           (pp_at(ey, i, j, k + 1, nx, ny, nz, nzp) - e_y) * inv_dz;
    h = hx[c];
    id = id_hx;
  } else if (a == 1) {
    curl = (pp_at(ex, i, j, k + 1, nx, ny, nz, nzp) - e_x) * inv_dz -
           (pp_at(ez, i + 1, j, k, nx, ny, nz, nzp) - e_z) * inv_dx;
    h = hy[c];
    id = id_hy;
  } else {
    curl = (pp_at(ey, i + 1, j, k, nx, ny, nz, nzp) - e_y) * inv_dx -
           (pp_at(ex, i, j + 1, k, nx, ny, nz, nzp) - e_x) * inv_dy;
    h = hz[c];
    id = id_hz;
  }
#if MAGNETIC
  const float db = hcoef[id[c]].x;
#else
  const float db = db_vacuum;
  (void)id;
  (void)hcoef;
#endif
  return h - db * curl;
}

KERNEL void predict_probes(GLOBAL const float* RESTRICT ex, GLOBAL const float* RESTRICT ey,
                           GLOBAL const float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                           GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                           GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                           GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                           GLOBAL const uchar* RESTRICT id_hx, GLOBAL const uchar* RESTRICT id_hy,
                           GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
                           float db_vacuum, float inv_dx, float inv_dy, float inv_dz, int nx, int ny,
                           int nz, int nzp,
                           GLOBAL const int* RESTRICT samples, /* cell entries (fdtd_common.h) */
                           GLOBAL const int* RESTRICT sample_source, GLOBAL const float* RESTRICT j_table,
                           int src_steps, GLOBAL float* RESTRICT batch, int nsamples, int s, int slot) {
  const int n = GLOBAL_ID(0);
  if (n >= nsamples) return;
  const int comp = entry_component(samples[2 * n]);
  const long c = entry_cell(samples[2 * n], samples[2 * n + 1]);
  const long row = c / nzp;
  const int k = (int)(c - row * nzp), j = (int)(row % ny), i = (int)(row / ny);
#define PP_H(a, ii, jj, kk)                                                                    \
  pp_h_next(ex, ey, ez, hx, hy, hz, id_hx, id_hy, id_hz, hcoef, db_vacuum, inv_dx, inv_dy, inv_dz, \
            (a), (ii), (jj), (kk), nx, ny, nz, nzp)
  float v;
  if (comp >= 3) {
    v = PP_H(comp - 3, i, j, k);
  } else {
    float curl, e;
    GLOBAL const uchar* id;
    if (comp == 0) {
      curl = (PP_H(2, i, j, k) - PP_H(2, i, j - 1, k)) * inv_dy -
             (PP_H(1, i, j, k) - PP_H(1, i, j, k - 1)) * inv_dz;
      e = ex[c];
      id = id_ex;
    } else if (comp == 1) {
      curl = (PP_H(0, i, j, k) - PP_H(0, i, j, k - 1)) * inv_dz -
             (PP_H(2, i, j, k) - PP_H(2, i - 1, j, k)) * inv_dx;
      e = ey[c];
      id = id_ey;
    } else {
      curl = (PP_H(1, i, j, k) - PP_H(1, i - 1, j, k)) * inv_dx -
             (PP_H(0, i, j, k) - PP_H(0, i, j - 1, k)) * inv_dy;
      e = ez[c];
      id = id_ez;
    }
    const float4 coef = ecoef[id[c]];
    v = coef.x * e + coef.y * curl;
    const int src = sample_source[n];
    if (src >= 0 && s < src_steps) v = v - coef.y * j_table[(long)src * src_steps + s];
  }
#undef PP_H
  batch[slot * nsamples + n] = v;
}
