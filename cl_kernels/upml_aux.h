// How the tile and onepass variants' UPML slab kernels (upml_xy4.cl, upml_zslab.cl) store their
// auxiliaries (device.upml_form; the host passes UPML_AUX with -D): computed in float always,
// stored as float (0) or bfloat16 (1: 2 B, the float's upper half rounded to nearest even: the
// float's range, 8 significant bits). Why: a PML cell moved ~150 B per step against a plain
// cell's ~48 B (onepass), 48 B of it the six auxiliaries read and written (16 B since a face cell
// keeps two: upml_lanes.h upml_face_update); bfloat16 halves those.
// IEEE binary16 would keep 11 bits but overflows at 65504: the auxiliaries are D/eps0 and B/mu0
// in V/m and A/m, and the engine tests' models reach 2e6 V/m (docs/BENCHMARKS.md).
// Four auxiliaries of one float4 are one AUX4 (16 B or 8 B), read by aux_load, written by aux_store.
#ifndef CLFDTD_UPML_AUX_H
#define CLFDTD_UPML_AUX_H
#include "compat.h"

#ifndef UPML_AUX
#define UPML_AUX 0
#endif

#if UPML_AUX == 0
#define AUX4 float4
DEVICE_FN float4 aux_load(GLOBAL const float4* p, int q) { return p[q]; }
DEVICE_FN void aux_store(GLOBAL float4* p, int q, float4 v) { p[q] = v; }
#elif UPML_AUX == 1
#define AUX4 ushort4
DEVICE_FN float bf16_to_float(uint b) { return BITS_FLOAT(b << 16); }
/* Round to nearest, ties to even, on the bits (infinities stay infinite; the finite check of
   the time loop catches a NaN either way). */
DEVICE_FN uint float_to_bf16(float f) {
  const uint b = FLOAT_BITS(f);
  return (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
}
DEVICE_FN float4 aux_load(GLOBAL const ushort4* p, int q) {
  const ushort4 u = p[q];
  return MAKE_FLOAT4(bf16_to_float(u.x), bf16_to_float(u.y), bf16_to_float(u.z),
                     bf16_to_float(u.w));
}
DEVICE_FN void aux_store(GLOBAL ushort4* p, int q, float4 v) {
  p[q] = MAKE_USHORT4((ushort)float_to_bf16(v.x), (ushort)float_to_bf16(v.y),
                      (ushort)float_to_bf16(v.z), (ushort)float_to_bf16(v.w));
}
#else
#error "UPML_AUX: 0 (float) or 1 (bfloat16)"
#endif

#endif /* CLFDTD_UPML_AUX_H */
