// Occupancy requests carried as program defines, one per kernel: MIN_GROUPS_<kernel> = n asks
// the compiler to fit n groups of the kernel's work-group size on one compute unit (it then
// holds the kernel's registers to what n groups leave). CUDA reads the define in the kernel's
// source (__launch_bounds__); NVIDIA's OpenCL has no such attribute, so its device layer adds
// the PTX directive `.minnctapersm n` to the kernel's entry in the program's PTX and builds that
// (DeviceInfo::min_groups_hint says whether a device honours the request).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::device {

constexpr const char* kMinGroupsPrefix = "MIN_GROUPS_";

// (kernel, n) for every MIN_GROUPS_<kernel> define with n > 0.
std::vector<std::pair<std::string, int>> min_groups_requests(const Defines& defines);

// Adds `.minnctapersm groups` to the directives of `.entry kernel(...)` in `ptx`. False, and
// `ptx` unchanged, where that entry is missing or declares no group size (.reqntid or .maxntid,
// without which ptxas ignores the directive) or already has a .minnctapersm.
bool add_ptx_min_groups(std::string& ptx, const std::string& kernel, int groups);

}  // namespace clfdtd::device
