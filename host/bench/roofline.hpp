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
                     // one pass: 51 B (+3)
  double pml = 0;    // a PML cell: the same plus its 6 auxiliaries read and written (48 B)
  double mean = 0;   // averaged over the model's cells
};

// Compulsory traffic, each array element read or written once per kernel (neighbour reads that
// caches serve are not counted): E update reads E, H and the 3 uint8 E ids, writes E; H update
// reads H and E (and the H ids when magnetic), writes H. one_pass (the onepass variant): E and H
// read once and written once per step, with the ids: 51 B. PML cells add their auxiliaries in
// either case; what the UPML kernels move beyond that (onepass touches those cells three times)
// is not counted, so the ratio to the copy bandwidth never flatters a variant.
CellBytes bytes_per_cell_update(const SimulationModel& m, bool one_pass = false);

// Bytes of device memory per cell for the fields and ids (what a non-PML cell costs to store).
double storage_bytes_per_cell(const SimulationModel& m);

}  // namespace clfdtd
