// The tuning cache's key and file round trip (backends/tuning_cache.hpp). The CLI test runs the
// tuner itself (tests/cli/test_cli_bench.cpp); this pins what makes a stored winner stale.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "backends/tuning_cache.hpp"

using namespace clfdtd;

TEST_CASE("tuning cache: the key names backend, device, driver and the kernel sources") {
  const std::string digest = kernel_sources_digest();
  CHECK(digest.size() == 12);
  CHECK(digest.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(kernel_sources_digest() == digest);  // a fingerprint, the same on every call
  CHECK(tuning_key("opencl", "GPU X", "1.2") == "opencl|GPU X|1.2|kernels " + digest);
  CHECK(tuning_key("cuda", "GPU X", "1.2") != tuning_key("opencl", "GPU X", "1.2"));
  CHECK(tuning_key("opencl", "GPU X", "1.3") != tuning_key("opencl", "GPU X", "1.2"));
}

TEST_CASE("tuning cache: a stored choice is found under its key only") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "clfdtd_test_tuning_cache";
  fs::remove_all(dir);
  const char* before = std::getenv("CLFDTD_CACHE_DIR");
  const std::string saved = before ? before : "";
  ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);
  const std::string key = tuning_key("opencl", "GPU X", "1.2");
  CHECK_FALSE(lookup_tuning(key).has_value());  // no file yet
  TunedChoice c;
  c.variant = KernelVariant::OnePass;
  c.workgroup = {8, 2, 32};
  c.gcells_per_s = 52.3;
  c.n = 512;
  store_tuning(key, c);
  const auto got = lookup_tuning(key);
  REQUIRE(got.has_value());
  CHECK(got->variant == KernelVariant::OnePass);
  CHECK(got->workgroup == std::array<int, 3>{8, 2, 32});
  CHECK(got->n == 512);
  // An entry stored under an older kernel digest is not this build's.
  CHECK_FALSE(lookup_tuning("opencl|GPU X|1.2|kernels 000000000000").has_value());
  // tblock's planes may be 0 (the chunk model's for each grid); no other variant's x.
  c.variant = KernelVariant::TBlock;
  c.workgroup = {0, 12, 14};
  store_tuning(key, c);
  REQUIRE(lookup_tuning(key).has_value());
  CHECK(lookup_tuning(key)->workgroup == std::array<int, 3>{0, 12, 14});
  c.variant = KernelVariant::OnePass;
  c.workgroup = {0, 2, 32};
  store_tuning(key, c);
  CHECK_FALSE(lookup_tuning(key).has_value());
  if (before) {
    ::setenv("CLFDTD_CACHE_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("CLFDTD_CACHE_DIR");
  }
  fs::remove_all(dir);
}

TEST_CASE("tuning cache: 2D entries per kind and kernel, never read as 3D ones or the reverse") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "clfdtd_test_tuning_cache_2d";
  fs::remove_all(dir);
  const char* before = std::getenv("CLFDTD_CACHE_DIR");
  const std::string saved = before ? before : "";
  ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);
  const std::string key3d = tuning_key("opencl", "GPU X", "1.2");
  const std::string tm = plane_tuning_key("opencl", "GPU X", "1.2", "tm", "plane-tile");
  const std::string te = plane_tuning_key("opencl", "GPU X", "1.2", "te", "plane-tile");
  const std::string cross = plane_tuning_key("opencl", "GPU X", "1.2", "wave", "wave-cross");
  CHECK(tm == key3d + "|2d tm|plane-tile");
  CHECK(te != tm);
  CHECK(cross != plane_tuning_key("opencl", "GPU X", "1.2", "wave", "wave-pairsum"));

  TunedChoice c3;
  c3.variant = KernelVariant::Rows;
  c3.workgroup = {1, 8, 1};
  store_tuning(key3d, c3);
  TunedWorkgroup w;
  w.kernel = "plane-tile";
  w.workgroup = {4, 32, 1};
  w.gcells_per_s = 3.5;
  w.n = 256;
  w.problem = "plane_tm";
  store_workgroup_tuning(tm, w);
  const auto got = lookup_workgroup_tuning(tm, "plane-tile");
  REQUIRE(got.has_value());
  CHECK(got->workgroup == std::array<int, 3>{4, 32, 1});
  CHECK(got->problem == "plane_tm");
  CHECK_FALSE(lookup_workgroup_tuning(te, "plane-tile").has_value());  // tm is not te
  CHECK_FALSE(lookup_workgroup_tuning(tm, "plane-rows").has_value());  // another kernel's shape
  CHECK_FALSE(lookup_workgroup_tuning(key3d, "plane-tile").has_value());  // 3D is not 2D
  CHECK_FALSE(lookup_tuning(tm).has_value());                              // 2D is not 3D
  const auto still = lookup_tuning(key3d);  // the 3D entry survived the 2D write
  REQUIRE(still.has_value());
  CHECK(still->workgroup == std::array<int, 3>{1, 8, 1});
  if (before) {
    ::setenv("CLFDTD_CACHE_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("CLFDTD_CACHE_DIR");
  }
  fs::remove_all(dir);
}

TEST_CASE("tuning cache: the entries for models with and without UPML, and an older file") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "clfdtd_test_tuning_cache_no_upml";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const char* before = std::getenv("CLFDTD_CACHE_DIR");
  const std::string saved = before ? before : "";
  ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);
  const std::string upml = tuning_key("opencl", "GPU X", "1.2");
  const std::string plain = no_upml_tuning_key("opencl", "GPU X", "1.2");
  CHECK(plain == upml + "|3d without upml");

  // A file as the tuner wrote it before the no-UPML entries: one 3D entry without "problem".
  {
    std::ofstream old(dir / "tuning.json");
    old << "{\"" << upml
        << "\": {\"variant\": \"onepass\", \"workgroup\": [8, 2, 32], \"gcells_per_s\": 52.3, "
           "\"n\": 512}}\n";
  }
  const auto old_upml = lookup_tuning(upml);
  REQUIRE(old_upml.has_value());
  CHECK(old_upml->variant == KernelVariant::OnePass);
  CHECK(old_upml->problem == "vacuum_upml");
  CHECK_FALSE(lookup_tuning(plain).has_value());  // the UPML entry only

  TunedChoice t;
  t.variant = KernelVariant::TBlock;
  t.workgroup = {32, 8, 14};
  t.gcells_per_s = 49.7;
  t.n = 512;
  t.problem = "pec_cube";
  store_tuning(plain, t);
  const auto got = lookup_tuning(plain);
  REQUIRE(got.has_value());
  CHECK(got->variant == KernelVariant::TBlock);
  CHECK(got->workgroup == std::array<int, 3>{32, 8, 14});
  CHECK(got->problem == "pec_cube");
  CHECK(got->n == 512);
  const auto still = lookup_tuning(upml);  // the older entry survived the write, unchanged
  REQUIRE(still.has_value());
  CHECK(still->variant == KernelVariant::OnePass);
  CHECK(still->workgroup == std::array<int, 3>{8, 2, 32});
  CHECK_FALSE(lookup_tuning(plane_tuning_key("opencl", "GPU X", "1.2", "tm", "plane-tile")).has_value());
  if (before) {
    ::setenv("CLFDTD_CACHE_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("CLFDTD_CACHE_DIR");
  }
  fs::remove_all(dir);
}
