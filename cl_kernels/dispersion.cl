#include "fdtd_common.h"

// Dispersive materials (host/model/dispersion.hpp, docs/EQUATIONS.md "Dispersive materials"): the
// semi-implicit step of every dispersive E sample, after every other E term of the step (the
// trapezoidal rule for the poles, so any pole is stable on the grid's time step). One work-item
// per sample; no two samples share a cell and component.
//   rows[row * row_stride]: (corr, inv, poles, upml), then (kK, A, B, C) per pole; a UPML row
//     (upml = 1; inv = 1 / (eps_inf + sum C)) ends with (a_v, b_v, a_w, b_w), (cp_u, cm_u, 0, 0)
//   state[slot * count + n]: slot 0 E of the step before (with one field set only), 1 + 2p Q_p,
//     2 + 2p K_p; UPML samples F at f_slot and D at f_slot + 1
// A sample in the UPML is updated here from the curl of H alone (the E kernels' value for it is
// overwritten, whichever form their variant took there): D' = a_v D + b_v (dt/eps0) curl H,
// D' = eps_inf F' + sum Q', E' = a_w E + b_w (cp_u F' - cm_u F) / 2, the poles driven by F.
// cx, cy, cz: dt / (eps0 d) per axis; sx, sy: the padded layout's x and y strides.
DEVICE_FN float dispersion_curl_h(int comp, long c, GLOBAL const float* RESTRICT hx,
                                  GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                                  long sx, long sy, float cx, float cy, float cz) {
  /* A dispersive sample is never on a low wall's tangential plane (PEC there), so c - sx, c - sy
     and c - 1 stay in the grid where they are read. 2D (sx = nyp, sy = 1, cz = 0): the z terms
     read c - 1 times zero; for te's Ey at j = 0 that is the previous row's last (padding) cell,
     in the grid since Ey at i = 0 is PEC. */
  if (comp == 0) return (hz[c] - hz[c - sy]) * cy - (hy[c] - hy[c - 1]) * cz;
  if (comp == 1) return (hx[c] - hx[c - 1]) * cz - (hz[c] - hz[c - sx]) * cx;
  return (hy[c] - hy[c - sx]) * cx - (hx[c] - hx[c - sy]) * cy;
}

/* A pole's K slot: K enters only through kK (Q' = Q + kK K + ..., the sum's kK K), and a
   first-order (Debye) pole has kK = 0, so its slot is neither read nor written (8 of the ~48
   bytes a soil sample moves a step). */
DEVICE_FN float dispersion_k(GLOBAL const float* RESTRICT state, float4 k, long at) {
  return k.x != 0.0f ? state[at] : 0.0f;
}

/* Pole p's Q: the first pole's from q0, read at the start (every sample has a pole), so that its
   load does not wait for the sample's row; the others' from the state. */
DEVICE_FN float dispersion_q(GLOBAL const float* RESTRICT state, int count, int n, int p, float q0) {
  return p == 0 ? q0 : state[(long)(1 + 2 * p) * count + n];
}

/* Each pole's Q and K over the step, driven by `before` and `after` (E, or F in the UPML). */
DEVICE_FN void dispersion_advance_poles(GLOBAL const float4* RESTRICT r, GLOBAL float* RESTRICT state,
                                        int count, int n, int poles, float q0, float before,
                                        float after) {
  for (int p = 0; p < poles; ++p) {
    const float4 k = r[1 + p];
    const long q_at = (long)(1 + 2 * p) * count + n, k_at = (long)(2 + 2 * p) * count + n;
    const float q = dispersion_q(state, count, n, p, q0), kk = dispersion_k(state, k, k_at);
    const float drive = k.z * q + k.w * (before + after);
    state[q_at] = q + k.x * kk + drive;
    if (k.x != 0.0f) state[k_at] = k.y * kk + drive;
  }
}

/* E of the step before: from the field set the step read (onepass and tblock keep two; it holds
   the corrected E this stage wrote a step ago), else from state slot 0 (one set: tile, rows, 2D),
   which this stage then keeps up to date. */
KERNEL void update_dispersion(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                              GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                              GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                              GLOBAL const float* RESTRICT ex_before,
                              GLOBAL const float* RESTRICT ey_before,
                              GLOBAL const float* RESTRICT ez_before,
                              GLOBAL const int* RESTRICT cells, GLOBAL const float4* RESTRICT rows,
                              GLOBAL float* RESTRICT state, int count, int row_stride, int f_slot,
                              int before_in_state, int sx, int sy, float cx, float cy, float cz) {
  const int n = GLOBAL_ID(0);
  if (n >= count) return;
  /* The loads that need only n first: they overlap the cell entry's (the stage is latency-bound). */
  const float q0 = state[count + (long)n];
  const float e_state = before_in_state ? state[n] : 0.0f;
  /* cells[2n]: component | (index % 4) << 3 | row << 5 (the row packed in: 4 bytes a sample less);
     cells[2n + 1]: the float4 lane. */
  const int code = cells[2 * (long)n];
  const int comp = code & 7;
  const long c = ((long)cells[2 * (long)n + 1] << 2) + ((code >> 3) & 3);
  GLOBAL float* f = comp == 0 ? ex : comp == 1 ? ey : ez;
  GLOBAL const float* fb = comp == 0 ? ex_before : comp == 1 ? ey_before : ez_before;
  GLOBAL const float4* r = rows + (long)(code >> 5) * row_stride;
  /* The cell's E as the other terms left it (read before the branch: only this sample writes it;
     a UPML sample does not use it). */
  const float e_terms = f[c];
  const float e_before = before_in_state ? e_state : fb[c];
  const float4 head = r[0];
  const int poles = (int)head.z;
  if (head.w == 0.0f) {
    float sum = 0.0f;
    for (int p = 0; p < poles; ++p) {
      const float4 k = r[1 + p];
      sum += k.x * dispersion_k(state, k, (long)(2 + 2 * p) * count + n) +
             k.z * dispersion_q(state, count, n, p, q0) + k.w * e_before;
    }
    const float e_new = (e_terms - head.x * sum) * head.y;
    dispersion_advance_poles(r, state, count, n, poles, q0, e_before, e_new);
    f[c] = e_new;
    if (before_in_state) state[n] = e_new;
    return;
  }
  const float4 pa = r[row_stride - 2], pc = r[row_stride - 1];
  const long f_at = (long)f_slot * count + n, d_at = f_at + count;
  const float f_before = state[f_at];
  const float d_new = pa.x * state[d_at] +
                      pa.y * dispersion_curl_h(comp, c, hx, hy, hz, sx, sy, cx, cy, cz);
  float known = 0.0f;  /* sum Q + sum (kK K + B Q + C F): sum Q' less its F' part */
  for (int p = 0; p < poles; ++p) {
    const float4 k = r[1 + p];
    const float q = dispersion_q(state, count, n, p, q0);
    known += q + k.x * dispersion_k(state, k, (long)(2 + 2 * p) * count + n) + k.z * q + k.w * f_before;
  }
  const float f_new = (d_new - known) * head.y;
  const float e_new = pa.z * e_before + 0.5f * pa.w * (pc.x * f_new - pc.y * f_before);
  dispersion_advance_poles(r, state, count, n, poles, q0, f_before, f_new);
  state[f_at] = f_new;
  state[d_at] = d_new;
  f[c] = e_new;
  if (before_in_state) state[n] = e_new;
}
