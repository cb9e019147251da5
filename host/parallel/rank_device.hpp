// Which device each rank of a distributed run opens (docs/MPI.md, "Devices").
#pragma once
#include <string>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::parallel {

// device.select for one rank, from the run's device.select (device::split_device_select):
//  - several comma-separated entries: rank r takes entry r mod K;
//  - one entry or none: among the devices that entry matches, those of the type of its best
//    match (the GPUs, say), in index order, the rank takes the one at its node-local index
//    (local_rank mod their count), so the ranks of a node use its GPUs in turn. An index picks
//    that one device for every rank.
// Returns the entry to hand to the backend (a device index when chosen in turn). With no device
// listed the entry is returned as it is (the backend reports the missing device). Throws
// ConfigError (device.select) as choose_device does when an entry matches nothing.
std::string rank_device_select(const std::string& select, int rank, int local_rank,
                               const std::vector<device::DeviceInfo>& devices);

}  // namespace clfdtd::parallel
