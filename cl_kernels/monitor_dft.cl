// DFT monitors (flux, dft, farfield; host/model/monitors.hpp):
//   X(f) = sum_{n = 0, D, 2D, ...} x(t_n) e^(-i 2 pi f t_n) D dt for every monitor point,
// D the monitor's decimation (1 unless the sources' band allows it: host/model/dft_decimation.hpp),
// where the fields live, in two stages per monitor:
//
// dft_gather (after every D-th step n): copies each monitor point's current value into slot
//   `slot` of a ring ring[slot * npoints + point]. The point's cell comes from the monitor's region
//   table (8 ints per region: component 0..5, lo0 lo1 lo2, hi0 hi1 hi2, first point; regions in
//   point order), not from a per-point index list: 4 B read from the field + 4 B written per point.
// dft_accumulate (every B samples, and before the host reads a partial ring): for each point and
//   frequency, acc[f] += sum_b ring[b][point] * w[kind][b][f], where kind is E (0) or H (1) and
//   w = e^(-i 2 pi f t) D dt with t = dft_time(component, n_b, dt), computed on the host in double
//   for the batch's steps (so the phase never loses precision however long the run) and uploaded
//   as floats w[((kind * B + b) * nfreq_pad + f) * 2 + {re, im}], zero past nfreq. One work-item
//   holds DFT_CHUNK frequencies of one point in registers (dimension 1 numbers the chunks), reads
//   its point's B ring values once, and does one read-modify-write of each accumulator per batch.
//   acc: re and im planes, acc[(2 f) * npoints + point] and acc[(2 f + 1) * npoints + point], so
//   neighbouring work-items touch neighbouring floats.
// Bytes per point per sample (F frequencies, C = ceil(F / DFT_CHUNK) chunks, B slots): gather 8
//   (a field value read, a ring value written) + accumulate 4 C (the ring read once per chunk)
//   + 16 F / B (each accumulator read and written once per batch); e.g. F = 10, B = 32:
//   8 + 4 + 5 = 17 B, against 16 F = 160 B for a read-modify-write of every accumulator per step.
//   (A face across z reads one float per 32-byte sector: up to 28 B more there.) Per step that is
//   17 / D B: the bench's flux box (10 frequencies, a pulse at c / (20 d)) takes D = 5, 3.4 B per
//   point per step, and a fifth of the launches.
// int indices: the host checks that B * npoints and 2 * nfreq * npoints fit in 31 bits.
#include "fdtd_common.h"

#ifndef DFT_CHUNK
#define DFT_CHUNK 16 /* frequencies per work-item; the host pads the weights to a multiple */
#endif

/* The region of `point`: the last one whose first point is <= point (regions are few: a closed
   box has at most 24). */
DEVICE_FN int dft_region_of(GLOBAL const int* RESTRICT regions, int nregions, int point) {
  int r = 0;
  while (r + 1 < nregions && regions[(r + 1) * 8 + 7] <= point) ++r;
  return r;
}

KERNEL void dft_gather(GLOBAL const float* RESTRICT ex, GLOBAL const float* RESTRICT ey,
                       GLOBAL const float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                       GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                       GLOBAL const int* RESTRICT regions, int nregions, int npoints, int ny,
                       int nzp, GLOBAL float* RESTRICT ring, int slot) {
  const int p = GLOBAL_ID(0);
  if (p >= npoints) return;
  GLOBAL const int* R = regions + 8 * dft_region_of(regions, nregions, p);
  const int n1 = R[5] - R[2], n2 = R[6] - R[3];
  const int q = p - R[7];
  const int i = R[1] + q / (n1 * n2), j = R[2] + (q / n2) % n1, k = R[3] + q % n2;
  const long c = cell_index(i, j, k, ny, nzp);
  const float v = component_at(ex, ey, ez, hx, hy, hz, R[0], c);
  ring[slot * npoints + p] = v;
}

KERNEL void dft_accumulate(GLOBAL const float* RESTRICT ring, GLOBAL const int* RESTRICT regions,
                           int nregions, int npoints, GLOBAL const float* RESTRICT weights,
                           int ring_slots, int nfreq, int nfreq_pad, GLOBAL float* RESTRICT acc,
                           int nslots) {
  const int p = GLOBAL_ID(0);
  const int f0 = GLOBAL_ID(1) * DFT_CHUNK;
  if (p >= npoints) return;
  const int kind = regions[8 * dft_region_of(regions, nregions, p)] < 3 ? 0 : 1;
  GLOBAL const float* RESTRICT w = weights + 2 * (kind * ring_slots * nfreq_pad + f0);
  float sr[DFT_CHUNK], si[DFT_CHUNK];
  for (int j = 0; j < DFT_CHUNK; ++j) {
    sr[j] = 0.0f;
    si[j] = 0.0f;
  }
  for (int b = 0; b < nslots; ++b) {
    const float x = ring[b * npoints + p];
    GLOBAL const float* RESTRICT wb = w + 2 * b * nfreq_pad;
    for (int j = 0; j < DFT_CHUNK; ++j) {
      sr[j] += x * wb[2 * j];
      si[j] += x * wb[2 * j + 1];
    }
  }
  for (int j = 0; j < DFT_CHUNK; ++j) {
    const int f = f0 + j;
    if (f < nfreq) {
      acc[(2 * f) * npoints + p] += sr[j];
      acc[(2 * f + 1) * npoints + p] += si[j];
    }
  }
}
