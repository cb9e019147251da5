// rank_device_select: see rank_device.hpp.
#include "parallel/rank_device.hpp"

#include "errors.hpp"

namespace clfdtd::parallel {
namespace {

bool matches(const device::DeviceInfo& d, const std::string& entry) {
  try {
    device::choose_device({d}, entry);
    return true;
  } catch (const ConfigError&) {
    return false;
  }
}

}  // namespace

std::string rank_device_select(const std::string& select, int rank, int local_rank,
                               const std::vector<device::DeviceInfo>& devices) {
  const std::vector<std::string> entries = device::split_device_select(select);
  if (entries.size() > 1) return entries[static_cast<std::size_t>(rank) % entries.size()];
  const std::string& entry = entries.front();
  if (devices.empty()) return entry;
  const device::DeviceInfo& best = devices[static_cast<std::size_t>(device::choose_device(devices, entry))];
  std::vector<const device::DeviceInfo*> in_turn;
  for (const device::DeviceInfo& d : devices)
    if (d.type == best.type && matches(d, entry)) in_turn.push_back(&d);
  const std::size_t at = static_cast<std::size_t>(local_rank < 0 ? 0 : local_rank) % in_turn.size();
  return std::to_string(in_turn[at]->index);
}

}  // namespace clfdtd::parallel
