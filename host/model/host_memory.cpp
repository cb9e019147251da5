#include "model/host_memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "config/printable.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {

constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max();

// "Key:   1234 kB" from /proc/meminfo or /proc/self/status, in bytes.
std::optional<std::size_t> proc_kib_field(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, key.size() + 1, key + ":") != 0) continue;
    std::istringstream fields(line.substr(key.size() + 1));
    unsigned long long kib = 0;
    if (fields >> kib) return static_cast<std::size_t>(kib) * 1024;
  }
  return std::nullopt;
}

// A number of bytes from a cgroup file; nullopt for "max" (no limit) or when absent.
std::optional<std::size_t> read_bytes(const std::string& path) {
  std::ifstream in(path);
  unsigned long long v = 0;
  if (!(in >> v)) return std::nullopt;
  return static_cast<std::size_t>(v);
}

// The least of limit - usage over this process's cgroup and its parents, for one hierarchy.
std::size_t cgroup_room(const std::string& root, const std::string& rel, const char* limit_file,
                        const char* usage_file) {
  std::size_t room = kUnknown;
  std::string dir = rel;
  while (true) {
    const std::string base = root + (dir == "/" ? "" : dir);
    const auto limit = read_bytes(base + "/" + limit_file);
    // cgroup v1 writes "no limit" as a page-rounded LONG_MAX; anything past 2^60 is that.
    if (limit && *limit < (std::size_t{1} << 60)) {
      const std::size_t used = read_bytes(base + "/" + usage_file).value_or(0);
      room = std::min(room, *limit > used ? *limit - used : 0);
    }
    if (dir.empty() || dir == "/") break;
    const auto slash = dir.rfind('/');
    dir = slash == 0 || slash == std::string::npos ? "/" : dir.substr(0, slash);
  }
  return room;
}

// Room left in this process's cgroups (v2 unified, else v1 memory controller).
std::size_t cgroups_room() {
  std::ifstream in("/proc/self/cgroup");
  std::size_t room = kUnknown;
  for (std::string line; std::getline(in, line);) {
    // "hierarchy-id:controllers:path"; v2 is "0::path", v1's memory controller "N:memory:path".
    const auto c1 = line.find(':'), c2 = line.find(':', c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) continue;
    const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1), path = line.substr(c2 + 1);
    if (controllers.empty()) {
      room = std::min(room, cgroup_room("/sys/fs/cgroup", path, "memory.max", "memory.current"));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      room = std::min(room, cgroup_room("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes",
                                        "memory.usage_in_bytes"));
    }
  }
  return room;
}

std::string bytes_text(std::size_t bytes) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%zu bytes (%.1f MiB)", bytes, bytes / 1048576.0);
  return buf;
}

}  // namespace

HostMemory host_memory_available() {
  HostMemory m{kUnknown, ""};
  auto consider = [&m](std::size_t room, const std::string& source) {
    if (room < m.available) m = HostMemory{room, source};
  };
  consider(proc_kib_field("/proc/meminfo", "MemAvailable").value_or(kUnknown),
           "MemAvailable of /proc/meminfo");
  consider(cgroups_room(), "the cgroup's memory limit less its usage");
  if (const char* env = std::getenv("CLFDTD_HOST_MEMORY_LIMIT"); env && *env) {
    char* end = nullptr;
    const double limit = std::strtod(env, &end);
    if (end == env || *end != '\0' || !(limit > 0) || !std::isfinite(limit))
      throw ConfigError("environment", 0, "CLFDTD_HOST_MEMORY_LIMIT",
                        "a number of bytes > 0 in the environment, got '" + printable(env) + "'");
    const std::size_t cap =
        limit >= 1.8e19 ? kUnknown : static_cast<std::size_t>(limit);  // beyond size_t: no cap
    const std::size_t resident = proc_kib_field("/proc/self/status", "VmRSS").value_or(0);
    consider(cap > resident ? cap - resident : 0,
             "CLFDTD_HOST_MEMORY_LIMIT less this process's resident memory, " +
                 std::to_string(resident) + " bytes");
  }
  return m;
}

void check_host_memory(std::size_t bytes_needed, const std::string& what) {
  const HostMemory m = host_memory_available();
  if (bytes_needed <= m.available) return;
  throw OutOfMemoryError("not enough host memory for " + what + ": needs " +
                         bytes_text(bytes_needed) + ", available " + bytes_text(m.available) +
                         " (" + m.limited_by + ")");
}

}  // namespace clfdtd
