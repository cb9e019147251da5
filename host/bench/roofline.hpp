// Roofline accounting for FDTD: the bytes a time step must move between the device and its
// memory, per cell update, for a given model. FDTD does ~2 flops per byte, so its speed is
// bandwidth / bytes; comparing the achieved bandwidth (bytes x cells x steps / time) with the
// device's measured copy bandwidth says how close a kernel is to what the memory allows.
#pragma once
#include <cstddef>

#include "model/simulation_model.hpp"

namespace clfdtd {

struct CellBytes {
  double plain = 0;  // a non-PML cell: update_h 36 B + update_e 39 B (+3 B of H ids if magnetic);
                     // one pass: 48.25 B, +3 B in the share of float4s whose E ids differ
                     // (a magnetic model: +0.25 B, +3 B where the H ids differ); a pass of two
                     // steps (tblock): half of that.
                     // 2D: see below.
  double pml = 0;    // a PML cell: the same plus its 6 auxiliaries read and written (48 B),
                     // or with face_one_aux the mean over the PML cells of 16 B for a cell in
                     // one slab only and 48 B for the edges and corners;
                     // 2D: 3 auxiliaries (24 B); wave: the frame's Yee tm + UPML cell
  double mean = 0;   // averaged over the model's cells
};

// Compulsory traffic, each array element read or written once per kernel (neighbour reads that
// caches serve are not counted): E update reads E, H and the 3 uint8 E ids, writes E; H update
// reads H and E (and the H ids when magnetic), writes H. one_pass (the onepass variant): E and H
// read once and written once per step (48 B), the E ids per float4 (0.25 B) and the three E ids
// (3 B) in the float4s where those differ: 48.25-51.25 B (the H ids of a magnetic model the same
// way: up to 54.5 B). PML cells add their auxiliaries in
// either case; what the UPML kernels move beyond that (onepass touches those cells three times)
// is not counted, so the ratio to the copy bandwidth never flatters a variant. steps_per_pass
// (the tblock variant: 2) divides a pass's bytes among the steps it advances; the halo columns
// its groups read again (1.6x the reads at its default 8 x 30 owned of 12 x 32) are not counted
// either: most are L2 hits.
//
// 2D models (the same rule, the plane's components):
//   tm Yee: H pass reads Ez Hx Hy, writes Hx Hy (20 B, +2 B of H ids if magnetic); E pass reads
//           Hx Hy Ez and the Ez id, writes Ez (17 B): 37 B;
//   te Yee: H pass reads Hz Ex Ey, writes Hz (16 B, +1); E pass reads Ex Ey Hz and 2 ids, writes
//           Ex Ey (22 B): 38 B;
//   PML cells of either: 3 auxiliaries read and written, +24 B;
//   wave:   reads u, u_prev and the Ez id, writes u_next: 13 B; its frame (the UPML cells and one
//           ring inside them, advanced by Yee tm) counts as Yee tm: 61 B in the UPML, 37 B on the
//           ring (plane_frame_ring_cells).
//
// Cylindrical models (cl_kernels/cyl_tile.cl, cyl_rows.cl, cyl_pml.cl), per cell-mode update (a
// cell (r, z) of one mode slot; every component is complex, a real and an imaginary plane):
//   plain:   H pass reads 6 H and 6 E floats, writes 6 H (72 B, +3 B of H ids if magnetic); E pass
//            likewise (72 B) plus the 3 E ids: 147 B (150);
//   z slab:  + the cell's 8 complex psi read and written (128 B): 275 B;
//   r slab:  + the 8 psi and the 1/r~ state of Er, Ez, Hr, Hz (G and the last input, complex: 16
//            floats) read and written (256 B): 403 B. `pml` is the r slab's figure, `mean` weighs
//            both slabs by their cells (cyl_pml_cells_of). The ids are shared by the modes but
//            counted per mode: each launch reads them once per mode slot.
// aux_bytes: bytes per stored UPML auxiliary of a 3D model (4; 2 with device.upml_form =
// bfloat16); steps_per_pass: time steps one pass advances (2 for tblock), dividing the plain bytes;
// face_one_aux: the cells of one slab only keep one auxiliary per field kind (Backend::
// upml_face_one_aux). one_pass (onepass and tblock) reads the E ids per float4 instead (0.25 B
// per cell) and the 3 B of a cell's three E ids only in the float4s whose twelve differ:
// mixed_e_ids is their share (mixed_e_id_share; 1 counts the 3 B everywhere, plus the 0.25);
// mixed_h_ids the same for the H ids of a magnetic model.
CellBytes bytes_per_cell_update(const SimulationModel& m, bool one_pass = false,
                                double aux_bytes = 4, int steps_per_pass = 1,
                                bool face_one_aux = false, double mixed_e_ids = 1,
                                double mixed_h_ids = 1);

// The share of the float4s of m's padded layout whose twelve E ids differ
// (backends/device_tables.hpp e_id_float4_table); the same for the H ids (h_id_float4_table), 0
// for a model that is not magnetic.
double mixed_e_id_share(const SimulationModel& m);
double mixed_h_id_share(const SimulationModel& m);

// 3D: the PML cells inside the layers of exactly one axis (the slabs' faces, not their edges or
// corners).
std::size_t upml_face_cells(const SimulationModel& m);

// Cylindrical: the CPML cells (r, z) of one mode: the r slab (r_hi x nz) and the z slabs of the
// rows left of it; r_slab: the r slab's alone.
std::size_t cyl_pml_cells_of(const SimulationModel& m, bool r_slab_only = false);

// The wave solver's ring: the non-PML cells next to a UPML slab (0 without UPML).
std::size_t plane_frame_ring_cells(const SimulationModel& m);

// Bytes of device memory per cell for the fields and ids (what a non-PML cell costs to store):
// 3D 24 B of fields + 3 (6 if magnetic) B of ids; 2D tm 12 + 1 (+2), te 12 + 2 (+1), wave 8 + 1;
// cylindrical, per cell and mode: 48 B of complex fields + 3 (6) B of ids.
double storage_bytes_per_cell(const SimulationModel& m);

}  // namespace clfdtd
