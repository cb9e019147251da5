// Patent step 4.4: time series at points of interest. Each work-item copies one probe sample
// (component 0..5 = Ex..Hz, cell index) into slot `slot` of a device batch buffer
// batch[slot * nsamples + sample]; the host reads the batch back only when it is full or the run
// ends (gprMax's receivers, openEMS's batched steps), so sampling costs no transfer per step.
// E is at s dt and H at (s - 1/2) dt when sampled after step s.
#include "fdtd_common.h"

KERNEL void sample_probes(GLOBAL const float* RESTRICT ex, GLOBAL const float* RESTRICT ey,
                          GLOBAL const float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                          GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                          GLOBAL const int* RESTRICT samples, /* cell entries (fdtd_common.h) */
                          GLOBAL float* RESTRICT batch, int nsamples, int slot) {
  const int n = GLOBAL_ID(0);
  if (n >= nsamples) return;
  const int comp = entry_component(samples[2 * n]);
  const long c = entry_cell(samples[2 * n], samples[2 * n + 1]);
  const float v = component_at(ex, ey, ez, hx, hy, hz, comp, c);
  batch[slot * nsamples + n] = v;
}
