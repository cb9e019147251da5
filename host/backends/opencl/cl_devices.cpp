// Patent step 3: enumerate OpenCL platforms and devices, and choose one.
#include "backends/opencl/cl_devices.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "backends/opencl/cl_error.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {

std::string trim(std::string s) {
  // Some drivers pad names with spaces or leave the terminating NUL in the string.
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == '\0')) {
    s.pop_back();
  }
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Platforms and devices in a fixed order; a platform without devices contributes none.
std::vector<std::pair<cl::Platform, cl::Device>> enumerate() {
  std::vector<std::pair<cl::Platform, cl::Device>> out;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return out;  // no ICD / CL_PLATFORM_NOT_FOUND_KHR: simply no devices
  }
  for (const auto& p : platforms) {
    std::vector<cl::Device> devices;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // CL_DEVICE_NOT_FOUND
    }
    for (const auto& d : devices) out.emplace_back(p, d);
  }
  return out;
}

std::string type_name(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "gpu";
  if (t & CL_DEVICE_TYPE_CPU) return "cpu";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

double score(const ClDeviceInfo& d) {
  return static_cast<double>(d.compute_units) * std::max(1u, d.clock_mhz);
}

// Best of the candidates: GPUs before CPUs before the rest, then by score, then lowest index.
int best_of(const std::vector<ClDeviceInfo>& devs, const std::vector<int>& candidates) {
  auto rank = [](const std::string& t) { return t == "gpu" ? 0 : (t == "cpu" ? 1 : 2); };
  int best = -1;
  for (int c : candidates) {
    if (best < 0) {
      best = c;
      continue;
    }
    const auto &a = devs[c], &b = devs[best];
    if (rank(a.type) < rank(b.type) || (rank(a.type) == rank(b.type) && score(a) > score(b))) {
      best = c;
    }
  }
  return best;
}

std::string mib(unsigned long long bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

std::vector<ClDeviceInfo> list_cl_devices() {
  std::vector<ClDeviceInfo> out;
  const auto all = enumerate();
  for (std::size_t n = 0; n < all.size(); ++n) {
    const auto& [p, d] = all[n];
    ClDeviceInfo info;
    info.index = static_cast<int>(n);
    try {
      info.platform = trim(p.getInfo<CL_PLATFORM_NAME>());
      info.name = trim(d.getInfo<CL_DEVICE_NAME>());
      info.vendor = trim(d.getInfo<CL_DEVICE_VENDOR>());
      info.type = type_name(d.getInfo<CL_DEVICE_TYPE>());
      info.version = trim(d.getInfo<CL_DEVICE_VERSION>());
      info.driver = trim(d.getInfo<CL_DRIVER_VERSION>());
      info.global_mem_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.max_alloc_bytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      info.compute_units = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
      info.clock_mhz = d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    } catch (const cl::Error& e) {
      throw_device_error(e, "querying OpenCL device " + std::to_string(n));
    }
    out.push_back(info);
  }
  return out;
}

std::string format_device_table(const std::vector<ClDeviceInfo>& devices) {
  if (devices.empty()) {
    return "No OpenCL device found (is an OpenCL driver / ICD installed?).\n";
  }
  std::vector<int> all(devices.size());
  for (std::size_t n = 0; n < devices.size(); ++n) all[n] = static_cast<int>(n);
  const int best = best_of(devices, all);
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "  %-3s %-11s %-40s %-28s %10s %10s %4s %6s  %s\n", "#", "type",
                "device", "platform", "memory", "max alloc", "CUs", "MHz", "version");
  os << line;
  for (std::size_t n = 0; n < devices.size(); ++n) {
    const auto& d = devices[n];
    std::snprintf(line, sizeof line, "%c %-3d %-11s %-40s %-28s %10s %10s %4u %6u  %s\n",
                  static_cast<int>(n) == best ? '*' : ' ', d.index, d.type.c_str(), d.name.c_str(),
                  d.platform.c_str(), mib(d.global_mem_bytes).c_str(),
                  mib(d.max_alloc_bytes).c_str(), d.compute_units, d.clock_mhz, d.version.c_str());
    os << line;
  }
  os << "* = chosen when device.select is empty\n";
  return os.str();
}

int choose_cl_device(const std::vector<ClDeviceInfo>& devices, const std::string& select) {
  if (devices.empty()) {
    throw DeviceError(
        "no OpenCL device found (no platform, or no device on any platform); "
        "install an OpenCL driver or use device.backend = reference");
  }
  const std::string want = lower(trim(select));
  std::vector<int> candidates;
  const bool numeric = !want.empty() && std::all_of(want.begin(), want.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
  std::string number = want;  // "007" names device 7; no integer parsing, so no overflow
  if (numeric) {
    number.erase(0, std::min(number.find_first_not_of('0'), number.size() - 1));
  }
  for (std::size_t n = 0; n < devices.size(); ++n) {
    const auto& d = devices[n];
    bool match;
    if (want.empty()) {
      match = true;
    } else if (numeric) {
      match = std::to_string(d.index) == number;
    } else if (want == "gpu" || want == "cpu") {
      match = d.type == want;
    } else {
      match = lower(d.name).find(want) != std::string::npos ||
              lower(d.platform).find(want) != std::string::npos;
    }
    if (match) candidates.push_back(static_cast<int>(n));
  }
  if (candidates.empty()) {
    std::string list;
    for (const auto& d : devices) {
      list += (list.empty() ? "" : "; ") + std::to_string(d.index) + " = " + d.name + " (" +
              d.type + ", " + d.platform + ")";
    }
    throw ConfigError("", 0, "device.select",
                      "a device index, gpu, cpu or part of a device/platform name matching \"" +
                          select + "\"; available: " + list);
  }
  return best_of(devices, candidates);
}

cl::Device cl_device_at(int index) {
  const auto all = enumerate();
  if (index < 0 || static_cast<std::size_t>(index) >= all.size()) {
    throw DeviceError("OpenCL device " + std::to_string(index) + " is no longer available");
  }
  return all[static_cast<std::size_t>(index)].second;
}

}  // namespace clfdtd
