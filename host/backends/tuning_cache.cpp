// tuning.json: see tuning_cache.hpp.
#include "backends/tuning_cache.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "backends/embedded_kernels.hpp"

namespace clfdtd {
namespace fs = std::filesystem;

const char* variant_name(KernelVariant v) {
  switch (v) {
    case KernelVariant::Auto: return "auto";
    case KernelVariant::Tile: return "tile";
    case KernelVariant::OnePass: return "onepass";
    case KernelVariant::Rows: return "rows";
    case KernelVariant::TBlock: return "tblock";
  }
  return "auto";
}

namespace {

std::optional<KernelVariant> variant_from(const std::string& s) {
  for (KernelVariant v :
       {KernelVariant::Tile, KernelVariant::OnePass, KernelVariant::Rows, KernelVariant::TBlock})
    if (s == variant_name(v)) return v;
  return std::nullopt;
}

nlohmann::json read_all(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json::object();
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    return j.is_object() ? j : nlohmann::json::object();
  } catch (const nlohmann::json::exception&) {
    return nlohmann::json::object();
  }
}

}  // namespace

std::string kernel_sources_digest() {
  static const std::string digest = [] {
    // FNV-1a (64 bit) over every embedded cl_kernels/ file's name and text: a stable
    // fingerprint, not a security hash; computed once per process.
    std::uint64_t h = 14695981039346656037ull;
    auto mix = [&h](const char* s) {
      for (; *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
      h = (h ^ 0xffu) * 1099511628211ull;  // separator, so "ab" + "c" differs from "a" + "bc"
    };
    for (const auto& f : embedded_kernel_files()) {
      mix(f.name);
      mix(f.text);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return std::string(hex, 12);
  }();
  return digest;
}

std::string tuning_key(const std::string& backend, const std::string& device,
                       const std::string& driver) {
  return backend + "|" + device + "|" + driver + "|kernels " + kernel_sources_digest();
}

std::string no_upml_tuning_key(const std::string& backend, const std::string& device,
                               const std::string& driver) {
  return tuning_key(backend, device, driver) + "|3d without upml";
}

std::string tuning_file() {
  fs::path dir;
  if (const char* d = std::getenv("CLFDTD_CACHE_DIR"); d && *d) {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = fs::path(x) / "clfdtd";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = fs::path(h) / ".cache" / "clfdtd";
  } else {
    dir = fs::temp_directory_path() / "clfdtd";
  }
  return (dir / "tuning.json").string();
}

std::optional<TunedChoice> lookup_tuning(const std::string& key) {
  const nlohmann::json all = read_all(tuning_file());
  if (!all.contains(key)) return std::nullopt;
  try {
    const auto& e = all.at(key);
    const auto v = variant_from(e.at("variant").get<std::string>());
    const auto wg = e.at("workgroup").get<std::array<int, 3>>();
    // tblock's planes may be 0: those its chunk model picks for each model's grid (bench/tuner.cpp).
    const int min_x = v && *v == KernelVariant::TBlock ? 0 : 1;
    if (!v || wg[0] < min_x || wg[1] < 1 || wg[2] < 1) return std::nullopt;
    TunedChoice c;
    c.variant = *v;
    c.workgroup = wg;
    c.gcells_per_s = e.value("gcells_per_s", 0.0);
    c.n = e.value("n", 0);
    c.problem = e.value("problem", std::string("vacuum_upml"));
    return c;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

namespace {

// Writes `all` to `path` through a temporary file and a rename.
void write_all(const std::string& path, const nlohmann::json& all) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp-" + std::to_string(static_cast<long>(::getpid()));
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << all.dump(2) << "\n";
    if (!out) throw std::runtime_error("tuning cache: cannot write '" + tmp + "'");
  }
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("tuning cache: cannot replace '" + path + "': " + ec.message());
}

}  // namespace

void store_tuning(const std::string& key, const TunedChoice& c) {
  const std::string path = tuning_file();
  nlohmann::json all = read_all(path);
  all[key] = {{"variant", variant_name(c.variant)},
              {"workgroup", c.workgroup},
              {"gcells_per_s", c.gcells_per_s},
              {"n", c.n},
              {"problem", c.problem}};
  write_all(path, all);
}

std::string plane_tuning_key(const std::string& backend, const std::string& device,
                             const std::string& driver, const std::string& kind,
                             const std::string& kernel) {
  return tuning_key(backend, device, driver) + "|2d " + kind + "|" + kernel;
}

std::optional<TunedWorkgroup> lookup_workgroup_tuning(const std::string& key,
                                                      const std::string& kernel) {
  const nlohmann::json all = read_all(tuning_file());
  if (!all.contains(key)) return std::nullopt;
  try {
    const auto& e = all.at(key);
    TunedWorkgroup c;
    c.kernel = e.at("kernel").get<std::string>();
    c.workgroup = e.at("workgroup").get<std::array<int, 3>>();
    if (c.kernel != kernel || c.workgroup[0] < 1 || c.workgroup[1] < 1 || c.workgroup[2] < 1)
      return std::nullopt;
    c.gcells_per_s = e.value("gcells_per_s", 0.0);
    c.n = e.value("n", 0);
    c.problem = e.value("problem", std::string());
    return c;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

void store_workgroup_tuning(const std::string& key, const TunedWorkgroup& c) {
  const std::string path = tuning_file();
  nlohmann::json all = read_all(path);
  all[key] = {{"kernel", c.kernel},
              {"workgroup", c.workgroup},
              {"gcells_per_s", c.gcells_per_s},
              {"n", c.n},
              {"problem", c.problem}};
  write_all(path, all);
}

}  // namespace clfdtd
