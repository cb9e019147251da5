// OpenCL C 1.2 <-> CUDA portability layer: the only file that knows which compiler reads the
// kernels. Kernels use these macros, plain .x .y .z .w components (no swizzles), tiles declared in
// the kernel body (no __local pointer arguments) and no built-in that lacks a mapping here.
// Every .cl file includes it (through fdtd_common.h). Two compilers read it: OpenCL (the host
// assembles the program text) and NVRTC (host/device/cuda: the same text as one C++ unit, so
// kernels are extern "C" and keep their names).
#ifndef CLFDTD_COMPAT_H
#define CLFDTD_COMPAT_H

#ifdef __CUDACC__
/* ---------------- CUDA ---------------- */
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;

#ifdef __CUDACC_RTC__
#define KERNEL extern "C" __global__
#else
#define KERNEL __global__
#endif
#define GLOBAL
#define LOCAL __shared__
#define CONSTANT_PTR const
#define RESTRICT __restrict__
#define DEVICE_FN static __device__ __forceinline__
#define LOCAL_BARRIER() __syncthreads()
/* Launch bounds instead of reqd_work_group_size: the tile is TILE_X*TILE_Y*TILE_Z4 threads. */
#define TILE_ATTR __launch_bounds__(TILE_X * TILE_Y * TILE_Z4)

/* Dimension 0 = x in CUDA's naming = z cells here (contiguous), 1 = y, 2 = x. */
DEVICE_FN int clfdtd_local_id(int d) {
  return d == 0 ? (int)threadIdx.x : (d == 1 ? (int)threadIdx.y : (int)threadIdx.z);
}
DEVICE_FN int clfdtd_group_id(int d) {
  return d == 0 ? (int)blockIdx.x : (d == 1 ? (int)blockIdx.y : (int)blockIdx.z);
}
DEVICE_FN int clfdtd_local_size(int d) {
  return d == 0 ? (int)blockDim.x : (d == 1 ? (int)blockDim.y : (int)blockDim.z);
}
#define LOCAL_ID(d) clfdtd_local_id(d)
#define GROUP_ID(d) clfdtd_group_id(d)
#define LOCAL_SIZE(d) clfdtd_local_size(d)
#define GLOBAL_ID(d) (clfdtd_group_id(d) * clfdtd_local_size(d) + clfdtd_local_id(d))

#define MAKE_FLOAT4(a, b, c, d) make_float4((a), (b), (c), (d))
#define MAKE_UCHAR4(a, b, c, d) make_uchar4((a), (b), (c), (d))
#define IS_FINITE(v) isfinite(v)
#define ATOMIC_OR(p, v) atomicOr((p), (v))

/* The bits of a float (cl_kernels/upml_aux.h). */
#define FLOAT_BITS(f) __float_as_uint(f)
#define BITS_FLOAT(u) __uint_as_float(u)
#define MAKE_USHORT4(a, b, c, d) make_ushort4((a), (b), (c), (d))

/* CUDA has no arithmetic on float4 (cuda-samples helper_math.h says so); these are all we use. */
DEVICE_FN float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
DEVICE_FN float4 operator-(float4 a, float4 b) {
  return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
}
DEVICE_FN float4 operator*(float4 a, float4 b) {
  return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w);
}
DEVICE_FN float4 operator*(float4 a, float s) {
  return make_float4(a.x * s, a.y * s, a.z * s, a.w * s);
}
DEVICE_FN float4 operator*(float s, float4 a) {
  return make_float4(a.x * s, a.y * s, a.z * s, a.w * s);
}

#else
/* ---------------- OpenCL C 1.2 ---------------- */
#define KERNEL __kernel
#define GLOBAL __global
#define LOCAL __local
#define CONSTANT_PTR __constant
#define RESTRICT restrict
/* static: C99 inline semantics would leave an undefined symbol at -O0 (e.g. under oclgrind). */
#define DEVICE_FN static inline
#define LOCAL_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
/* The tile arrays are sized for exactly this local size (dim 0 = z4, 1 = y, 2 = x). */
#define TILE_ATTR __attribute__((reqd_work_group_size(TILE_Z4, TILE_Y, TILE_X)))

#define LOCAL_ID(d) ((int)get_local_id(d))
#define GROUP_ID(d) ((int)get_group_id(d))
#define LOCAL_SIZE(d) ((int)get_local_size(d))
#define GLOBAL_ID(d) ((int)get_global_id(d))

#define MAKE_FLOAT4(a, b, c, d) ((float4)((a), (b), (c), (d)))
#define MAKE_UCHAR4(a, b, c, d) ((uchar4)((a), (b), (c), (d)))
#define IS_FINITE(v) isfinite(v)
#define ATOMIC_OR(p, v) atomic_or((p), (v))

/* The bits of a float (cl_kernels/upml_aux.h). */
#define FLOAT_BITS(f) as_uint(f)
#define BITS_FLOAT(u) as_float(u)
#define MAKE_USHORT4(a, b, c, d) ((ushort4)((a), (b), (c), (d)))
#endif

/* Defaults shared by both builds; the OpenCL host passes the real tile with -D. */
#ifndef TILE_X
#define TILE_X 2
#endif
#ifndef TILE_Y
#define TILE_Y 2
#endif
#ifndef TILE_Z4
#define TILE_Z4 30
#endif
#ifndef MAGNETIC
#define MAGNETIC 0
#endif

#endif /* CLFDTD_COMPAT_H */
