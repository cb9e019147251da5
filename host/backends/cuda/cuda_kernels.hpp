// The CUDA build of cl_kernels/: the interface between the kernels compiled by nvcc
// (cl_kernels/cuda_kernels.cu, which includes the very .cl files the OpenCL backend builds) and
// the host code of the CUDA backend. Launches are typed calls made inside the .cu file, so a
// kernel whose argument list changes fails to compile here instead of misreading its arguments.
//
// The tiled kernels (update_h, update_e) size their shared-memory tiles at compile time, so nvcc
// builds them once per block shape in CLFDTD_CUDA_TILES (CMake, default in CMakeLists.txt) and
// per MAGNETIC setting; device.workgroup picks one of those shapes.
#pragma once
#include <cuda_runtime_api.h>

#include <vector>

namespace clfdtd {

// Every device pointer and scalar any kernel takes; fields are the padded arrays of
// docs/EQUATIONS.md (float4-aligned), tables as in the OpenCL backend (opencl_buffers.cpp).
struct CudaKernelArgs {
  float* field[6] = {};                    // Ex Ey Ez Hx Hy Hz
  float* field_next[6] = {};               // onepass: the fields it writes (swapped each step)
  bool slabs_to_next = false;              // onepass: the UPML slab kernels write field_next
  int planes = 0;                          // onepass: planes along x per block
  const unsigned char* id[6] = {};         // material id per cell; H ids only when magnetic
  const float* ecoef = nullptr;            // float4 per id: (ca, cb, inv_eps_r, 0)
  const float* hcoef = nullptr;            // float4 per id: (db, inv_mu_r, 0, 0); magnetic only
  float db_vacuum = 0;                     // H coefficient when not magnetic
  float inv_d[3] = {};                     // 1/dx 1/dy 1/dz
  int nx = 0, ny = 0, nz = 0, nz4 = 0, nzp = 0;
  int layers[6] = {};                      // PML layers x_lo x_hi y_lo y_hi z_lo z_hi
  bool magnetic = false;

  float* aux[6] = {};                      // Dx Dy Dz Bx By Bz, one float per PML cell (tile and
                                           // onepass: float4 rows of the x/y slabs, upml_xy4.cl)
  int xy_rows = 0;                         // tile and onepass: rows of the x/y slabs
  const float* profile[6] = {};            // float4 (a, b, cp, cm): integer x y z, half x y z
  float dt_eps0 = 0, dt_mu0 = 0;
  const int* boxes = nullptr;              // int[8] per PML box (fused and rows variants)
  int nboxes = 0;
  const float* z_split = nullptr;          // z profiles as 8 arrays of nz floats (rows variant)
  // Tile variant: the z slabs (device_tables.hpp ZSlabLayout, upml_zslab.cl): float4 auxiliaries
  // By Bz Dy Dz, 8 float4 z profiles per float4 kq; no slabs: zq_lo = 0, zq_hi = nz4, null.
  float* zaux[4] = {};
  const float* zlanes = nullptr;
  int zq_lo = 0, zq_hi = 0, znq = 0;

  const int* src_cells = nullptr;          // (component, cell index) per merged source
  const float* src_j = nullptr;            // J[src * steps + s]
  int nsrc = 0, src_steps = 0;

  const int* probe_cells = nullptr;        // (component, cell index) per probe sample
  float* probe_batch = nullptr;            // batch[slot * nsamples + sample]
  int nsamples = 0;

  int* flag = nullptr;                     // check_finite's result
  int count4 = 0;                          // nx * ny * nz4
};

// One launch: grid and block in CUDA order (x = z4 or linear, y = j, z = i) on a stream.
struct CudaLaunch {
  dim3 grid, block;
  cudaStream_t stream = nullptr;
};

// A launcher enqueues one kernel and returns cudaGetLastError() (launch errors only; faults
// during execution surface at the next synchronisation).
using CudaLauncher = cudaError_t (*)(const CudaLaunch&, const CudaKernelArgs&);
using CudaIndexLauncher = cudaError_t (*)(const CudaLaunch&, const CudaKernelArgs&, int);

// One PML box of host/model/upml_profile.hpp as upml.cl takes it: first cell, extent, and the
// auxiliaries' index of its first cell. The UPML kernels are launched once per box.
struct CudaPmlBox {
  int i0 = 0, j0 = 0, k0 = 0, ni = 0, nj = 0, nk = 0, aux_offset = 0;
};
using CudaBoxLauncher = cudaError_t (*)(const CudaLaunch&, const CudaKernelArgs&,
                                        const CudaPmlBox&);

// update_h and update_e compiled for one block shape (x, y, z4) = CUDA block (z, y, x).
struct CudaTileKernels {
  int x = 0, y = 0, z4 = 0;
  CudaLauncher update_h = nullptr, update_e = nullptr;
  const void* update_h_fn[2] = {};  // the __global__ functions (MAGNETIC 0, 1), for attributes
  const void* update_e_fn = nullptr;
  // update_onepass.cl for the block (z4, y, 1), where x = 1, y >= 2 and z4 >= 2; else null.
  CudaLauncher onepass = nullptr;
  const void* onepass_fn[2] = {};  // MAGNETIC 0, 1
};

// The shapes of this build, in CLFDTD_CUDA_TILES order; the first is the default.
const std::vector<CudaTileKernels>& cuda_tile_kernels();

// The kernels that do not depend on the tile. The plain variant (update_plain.cl: one cell per
// thread, any block shape) runs on a 3D grid like the tiled kernels but over z in cells; the rows
// variant (update_rows.cl: one thread per (i, j) row, its PML cells included) on a 2D grid,
// CUDA x = j, y = i; the fused variant (update_fused.cl) like plain, PML cells included; the UPML
// kernels on a 3D grid per PML box (x = k, y = j, z = i); the others one thread per item on a
// linear grid.
struct CudaCommonKernels {
  CudaLauncher update_h_plain = nullptr, update_e_plain = nullptr;
  CudaLauncher update_h_rows = nullptr, update_e_rows = nullptr;
  CudaLauncher update_h_fused = nullptr, update_e_fused = nullptr;
  CudaBoxLauncher upml_h = nullptr, upml_e = nullptr;
  CudaLauncher upml_zslab_h = nullptr, upml_zslab_e = nullptr;  // tile variant's z slabs
  CudaLauncher upml_xy4_h = nullptr, upml_xy4_e = nullptr;  // tile/onepass: x/y slabs (x = kq, y = row)
  CudaLauncher check_finite = nullptr;
  CudaIndexLauncher add_sources = nullptr;    // index = step s
  CudaIndexLauncher sample_probes = nullptr;  // index = batch slot
  const void* update_h_plain_fn[2] = {};      // MAGNETIC 0, 1
  const void* update_e_plain_fn = nullptr;
  const void* update_h_rows_fn[2] = {};
  const void* update_e_rows_fn = nullptr;
  const void* update_h_fused_fn[2] = {};
  const void* update_e_fused_fn = nullptr;
};
const CudaCommonKernels& cuda_common_kernels();

// output.energy (energy.cl, MAGNETIC 0 and 1; cuda_energy.cpp): blocks of kCudaEnergyGroup
// threads (its ENERGY_GROUP, a tree reduction in shared memory sized for exactly that), one per
// group; the group count is the launch's grid. The buffers energy.cl takes besides the fields.
constexpr int kCudaEnergyGroup = 64;
struct CudaEnergyArgs {
  float* h_prev[3] = {};           // H of the previous sample (energy.cl writes H there)
  const float* eps_r = nullptr;    // per E material id, 256 entries (PEC: 0)
  const float* mu_r = nullptr;     // per H material id, 256 entries; magnetic only
  float* partial = nullptr;        // partial[(slot * 3 + term) * groups + group]
};
// Enqueues energy_sums for batch slot `slot`. The fields are a.field as they are at this call,
// so after the onepass variant's swap it sums the current ones. Returns cudaGetLastError().
cudaError_t launch_cuda_energy_sums(const CudaLaunch& l, const CudaKernelArgs& a,
                                    const CudaEnergyArgs& e, int slot);
const void* cuda_energy_sums_fn(bool magnetic);  // the __global__ function, for attributes

}  // namespace clfdtd
