// What both device implementations share: API names, the embedded program text, dispatch to the
// APIs compiled into this build, and the device.select chooser over DeviceInfo.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>

#include "backends/embedded_kernels.hpp"
#include "device/device.hpp"
#include "device/device_checks.hpp"
#include "device/program_source.hpp"
#include "errors.hpp"
#ifdef CLFDTD_HAVE_OPENCL
#include "device/opencl/opencl_device.hpp"
#endif
#ifdef CLFDTD_HAVE_CUDA
#include "device/cuda/cuda_device.hpp"
#endif

namespace clfdtd::device {

namespace {

const char* embedded_text(const std::string& name) {
  for (const auto& f : embedded_kernel_files()) {
    if (name == f.name) return f.text;
  }
  return nullptr;
}

// The file name of a local include (`#include "x.h"`), "" for any other line. <...> includes
// are left to the compiler (the kernels use none).
std::string local_include(const std::string& line) {
  std::size_t p = line.find_first_not_of(" \t");
  if (p == std::string::npos || line[p] != '#') return "";
  p = line.find_first_not_of(" \t", p + 1);
  if (p == std::string::npos || line.compare(p, 7, "include") != 0) return "";
  const auto open = line.find('"', p + 7);
  if (open == std::string::npos) return "";
  const auto close = line.find('"', open + 1);
  if (close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

// Appends `name` with its includes expanded, unless it is in `done` already.
void expand(const std::string& name, const std::string& included_from, std::set<std::string>& done,
            std::string& out) {
  if (done.count(name)) return;
  const char* text = embedded_text(name);
  if (!text) {
    throw DeviceError("embedded kernel file cl_kernels/" + name + " is missing from this build" +
                      (included_from.empty() ? std::string(" (rebuild clfdtd)")
                                             : " (included from " + included_from + ")"));
  }
  done.insert(name);
  out += "#line 1 \"" + name + "\"\n";
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string inc = local_include(line);
    if (inc.empty()) {
      out += line;
      out += '\n';
      continue;
    }
    expand(inc, "cl_kernels/" + name + ":" + std::to_string(n), done, out);
    out += "#line " + std::to_string(n + 1) + " \"" + name + "\"\n";
  }
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

double score(const DeviceInfo& d) {
  return static_cast<double>(d.compute_units) * std::max(1u, d.clock_mhz);
}

// Best of the candidates: GPUs before CPUs before the rest, then by score, then lowest position.
int best_of(const std::vector<DeviceInfo>& devs, const std::vector<int>& candidates) {
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

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::string mib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

bool plausible_device_span(double span, double wall) {
  return span >= 0.5 * wall && span <= 1.1 * wall + 1e-3;
}

std::vector<std::vector<std::size_t>> launch_chains(const std::vector<Device::Launch>& launches,
                                                   const std::vector<bool>& runs) {
  std::vector<std::vector<std::size_t>> chains;
  for (std::size_t n = 0; n < launches.size(); ++n) {
    if (chains.empty() || !launches[n].after_previous) chains.emplace_back();
    chains.back().push_back(n);
  }
  // Chains are formed before the launches that run nothing are dropped, so that a launch after
  // one of them waits for the work before the list only, as it would have once that one ended.
  std::vector<std::vector<std::size_t>> running;
  for (const auto& chain : chains) {
    std::vector<std::size_t> kept;
    for (std::size_t n : chain) {
      if (runs[n]) kept.push_back(n);
    }
    if (!kept.empty()) running.push_back(std::move(kept));
  }
  return running;
}

std::string trim_driver_text(std::string s) {
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == '\0')) {
    s.pop_back();
  }
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

void check_span(const Buffer& b, std::size_t offset, std::size_t bytes, const char* call) {
  if (offset > b.bytes() || bytes > b.bytes() - offset) {
    throw DeviceError(std::string(call) + ": bytes " + std::to_string(offset) + " to " +
                      std::to_string(offset + bytes) + " lie outside the buffer of " +
                      std::to_string(b.bytes()) + " bytes");
  }
}

Rect checked_rect(const Buffer& src, const Rect& r) {
  Rect out = r;
  if (out.row_pitch == 0) out.row_pitch = r.row_bytes;
  if (out.slice_pitch == 0) out.slice_pitch = out.row_pitch * r.rows;
  if (out.row_pitch < r.row_bytes || out.slice_pitch < out.row_pitch * r.rows) {
    throw DeviceError("read_rect: rows of " + std::to_string(r.row_bytes) + " bytes, " +
                      std::to_string(r.rows) + " per slice, do not fit pitches " +
                      std::to_string(out.row_pitch) + " / " + std::to_string(out.slice_pitch));
  }
  if (r.row_bytes && r.rows && r.slices) {
    check_span(src, r.offset,
               (r.slices - 1) * out.slice_pitch + (r.rows - 1) * out.row_pitch + r.row_bytes,
               "read_rect");
  }
  return out;
}

std::vector<std::string> define_flags(const Defines& defines) {
  std::vector<std::string> out;
  for (const auto& [name, value] : defines) {
    if (!is_identifier(name)) {
      throw DeviceError("program define '" + name + "' is not a C identifier");
    }
    out.push_back("-D" + name + "=" + std::to_string(value));
  }
  return out;
}

void check_launch_ranges(const std::string& kernel, const Range& global, const Range& local) {
  for (int d = 0; d < 3; ++d) {
    if (local[d] == 0 || global[d] % local[d] != 0) {
      throw DeviceError("launching kernel " + kernel + ": global size " +
                        std::to_string(global[d]) + " in dimension " + std::to_string(d) +
                        " is not a multiple of the local size " + std::to_string(local[d]));
    }
  }
}

const char* api_name(Api api) { return api == Api::Cuda ? "cuda" : "opencl"; }

std::string embedded_file_source(const std::string& name) {
  std::set<std::string> done;
  std::string out;
  expand(name, "", done, out);
  return out;
}

std::string embedded_program_source() {
  std::vector<std::string> names;
  for (const auto& f : embedded_kernel_files()) {
    if (ends_with(f.name, ".cl")) names.emplace_back(f.name);
  }
  std::sort(names.begin(), names.end());
  std::set<std::string> done;
  std::string out;
  for (const auto& n : names) expand(n, "", done, out);
  return out;
}

std::vector<DeviceInfo> list_devices(Api api) {
#ifdef CLFDTD_HAVE_OPENCL
  if (api == Api::OpenCL) return list_opencl_devices();
#endif
#ifdef CLFDTD_HAVE_CUDA
  if (api == Api::Cuda) return list_cuda_devices();
#endif
  (void)api;
  return {};
}

std::unique_ptr<Device> open_device(Api api, int index) {
#ifdef CLFDTD_HAVE_OPENCL
  if (api == Api::OpenCL) return open_opencl_device(index);
#endif
#ifdef CLFDTD_HAVE_CUDA
  if (api == Api::Cuda) return open_cuda_device(index);
#endif
  throw DeviceError(std::string("the ") + api_name(api) +
                    " device API is not compiled into this build of clfdtd");
}

int choose_device(const std::vector<DeviceInfo>& devices, const std::string& select) {
  if (devices.empty()) {
    throw DeviceError("no device to choose from (device.select = \"" + select + "\")");
  }
  const std::string want = lower(trim_driver_text(select));
  const bool numeric = !want.empty() && std::all_of(want.begin(), want.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
  std::string number = want;  // "007" names device 7; no integer parsing, so no overflow
  if (numeric) number.erase(0, std::min(number.find_first_not_of('0'), number.size() - 1));
  std::vector<int> candidates;
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
                      "a device index, gpu, cpu or part of a device/platform name; no device "
                      "matches \"" + select + "\"; available: " + list);
  }
  return best_of(devices, candidates);
}

std::vector<std::string> split_device_select(const std::string& select) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = select.find(',', start);
    std::string entry = select.substr(start, comma == std::string::npos ? std::string::npos
                                                                        : comma - start);
    const auto first = entry.find_first_not_of(" \t");
    const auto last = entry.find_last_not_of(" \t");
    entry = first == std::string::npos ? "" : entry.substr(first, last - first + 1);
    out.push_back(entry);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() > 1)
    for (const std::string& e : out)
      if (e.empty())
        throw ConfigError("", 0, "device.select",
                          "a comma-separated list of devices without empty entries, got \"" +
                              select + "\"");
  return out;
}

std::string format_device_table(const std::vector<DeviceInfo>& devices) {
  if (devices.empty()) return "No device found.\n";
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

}  // namespace clfdtd::device
