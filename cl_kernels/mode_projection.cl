// modes monitors (host/model/monitors.hpp): the projection of the current E on many mode shapes,
//   value_k = sum over cells of E . mode_k   (the host scales by dV),
// with seed 004's technique: each work-group reduces its work-items' sums by a tree in local
// memory and writes one partial sum per mode, partial[(slot * nmodes + k) * ngroups + group];
// the host reads a batch of slots back and adds the groups in double.
//
// Range: dimension 0 = ngroups * group work-items over the padded layout's float4s, group =
// stride / ngroups a power of two from MODE_BLOCK to MODE_GROUP (the host takes the largest the
// device allows for this kernel: 128 on GPUs, 32 on Mesa's llvmpipe)
// (count4 = nx * ny * nz4, looping with stride = the dimension's size when there are more), and
// dimension 1 = the blocks of MODE_BLOCK modes. A work-item reads its E float4s once per block and
// keeps the block's MODE_BLOCK sums in registers, so E is read ceil(nmodes / MODE_BLOCK) times per
// sample instead of nmodes times. modes[(k * 3 + c) * count4 + c4]: the E of mode k, component c,
// zero in padding lanes (so padding adds nothing).
// Bytes per cell and sample: 12 nmodes (the modes) + 12 ceil(nmodes / MODE_BLOCK) (E);
// e.g. 100 modes: 1200 + 156 B.
#include "fdtd_common.h"

#ifndef MODE_GROUP
#define MODE_GROUP 128 /* the largest group: a power of two >= MODE_BLOCK, sizes the local memory */
#endif
#ifndef MODE_BLOCK
#define MODE_BLOCK 8 /* modes per work-item */
#endif

DEVICE_FN float mode_dot4(float4 a, float4 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

KERNEL void mode_project(GLOBAL const float4* RESTRICT ex, GLOBAL const float4* RESTRICT ey,
                         GLOBAL const float4* RESTRICT ez, GLOBAL const float4* RESTRICT modes,
                         int nmodes, int count4, int stride, int ngroups,
                         GLOBAL float* RESTRICT partial, int slot) {
  LOCAL float red[MODE_BLOCK * MODE_GROUP];
  const int k0 = GROUP_ID(1) * MODE_BLOCK;
  const int kn = nmodes - k0 < MODE_BLOCK ? nmodes - k0 : MODE_BLOCK;

  float acc[MODE_BLOCK];
  for (int j = 0; j < MODE_BLOCK; ++j) acc[j] = 0.0f;
  for (int c = GLOBAL_ID(0); c < count4; c += stride) {
    const float4 e_x = ex[c], e_y = ey[c], e_z = ez[c];
    for (int j = 0; j < MODE_BLOCK; ++j) {
      if (j < kn) {
        GLOBAL const float4* RESTRICT mk = modes + (size_t)(3 * (k0 + j)) * (size_t)count4;
        acc[j] += mode_dot4(e_x, mk[c]) + mode_dot4(e_y, mk[count4 + c]) +
                  mode_dot4(e_z, mk[2 * count4 + c]);
      }
    }
  }

  const int lid = LOCAL_ID(0);
  const int group = stride / ngroups;
  for (int j = 0; j < MODE_BLOCK; ++j) red[j * MODE_GROUP + lid] = acc[j];
  LOCAL_BARRIER();
  for (int width = group / 2; width > 0; width /= 2) {
    if (lid < width) {
      for (int j = 0; j < MODE_BLOCK; ++j) {
        red[j * MODE_GROUP + lid] += red[j * MODE_GROUP + lid + width];
      }
    }
    LOCAL_BARRIER();
  }
  if (lid < kn) partial[(slot * nmodes + k0 + lid) * ngroups + GROUP_ID(0)] = red[lid * MODE_GROUP];
}
