#include "fdtd_common.h"

// Dispersive materials (host/model/dispersion.hpp, docs/EQUATIONS.md "Dispersive materials"): the
// semi-implicit step of every dispersive E sample, after every other E term of the step (the
// trapezoidal rule for the poles, so any pole is stable on the grid's time step). One work-item
// per sample; no two samples share a cell and component.
//   rows[row * row_stride]: (corr, inv, poles, 0), then (kK, A, B, C) per pole
//   state[slot * count + n]: slot 0 E of the step before, 1 + 2p Q_p, 2 + 2p K_p
KERNEL void update_dispersion(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                              GLOBAL float* RESTRICT ez, GLOBAL const int* RESTRICT cells,
                              GLOBAL const int* RESTRICT row_of, GLOBAL const float4* RESTRICT rows,
                              GLOBAL float* RESTRICT state, int count, int row_stride) {
  const int n = GLOBAL_ID(0);
  if (n >= count) return;
  const int comp = entry_component(cells[2 * (long)n]);
  const long c = entry_cell(cells[2 * (long)n], cells[2 * (long)n + 1]);
  GLOBAL float* f = comp == 0 ? ex : comp == 1 ? ey : ez;
  GLOBAL const float4* r = rows + (long)row_of[n] * row_stride;
  const float4 head = r[0];
  const int poles = (int)head.z;
  const float e_before = state[n];
  float sum = 0.0f;
  for (int p = 0; p < poles; ++p) {
    const float4 k = r[1 + p];
    sum += k.x * state[(long)(2 + 2 * p) * count + n] + k.z * state[(long)(1 + 2 * p) * count + n] +
           k.w * e_before;
  }
  const float e_new = (f[c] - head.x * sum) * head.y;
  for (int p = 0; p < poles; ++p) {
    const float4 k = r[1 + p];
    const long q_at = (long)(1 + 2 * p) * count + n, k_at = (long)(2 + 2 * p) * count + n;
    const float q = state[q_at], kk = state[k_at];
    const float drive = k.z * q + k.w * (e_before + e_new);
    state[q_at] = q + k.x * kk + drive;
    state[k_at] = k.y * kk + drive;
  }
  f[c] = e_new;
  state[n] = e_new;
}
