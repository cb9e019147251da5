// `clfdtd bench --tune` on the 2D problems (issue 19): the work-group of each 2D kernel is stored
// under a key of its own (device, tm / te / wave, kernel), a later 2D run of that kind takes it
// ("(tuned)" in run.json), and 2D and 3D entries never stand in for each other in one cache file.
// Tiny sizes: the plumbing, not the speed (timed assertions do not belong in tests).
#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "backends/tuning_cache.hpp"
#include "cli_helpers.hpp"

using namespace clfdtd_test;

namespace {

bool no_opencl(const Ran& r) { return r.out.find("no OpenCL device") != std::string::npos; }

// CLFDTD_CACHE_DIR for this scope (ctest sets one for the whole executable: put it back after).
class CacheDir {
public:
  explicit CacheDir(const std::string& dir) {
    const char* before = std::getenv("CLFDTD_CACHE_DIR");
    had_ = before != nullptr;
    if (had_) saved_ = before;
    ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);
  }
  ~CacheDir() {
    if (had_) {
      ::setenv("CLFDTD_CACHE_DIR", saved_.c_str(), 1);
    } else {
      ::unsetenv("CLFDTD_CACHE_DIR");
    }
  }

private:
  bool had_ = false;
  std::string saved_;
};

// The kernel_variant run.json records for `model` run 5 steps into dir/<name>.
std::string run_variant(const std::string& model, const std::string& dir, const std::string& name,
                        const std::string& extra = "") {
  const auto r = run_clfdtd("run " + model + " --time.steps=5 --output.dir=" + dir + "/" + name +
                            " --quiet " + extra);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  return nlohmann::json::parse(read_text(dir + "/" + name + "/run.json"))["kernel_variant"];
}

bool tuned(const std::string& variant) { return variant.find("(tuned)") != std::string::npos; }

// The entries of tuning.json whose key ends with `suffix`.
int entries_ending(const nlohmann::json& cache, const std::string& suffix) {
  int n = 0;
  for (auto it = cache.begin(); it != cache.end(); ++it) {
    const std::string& k = it.key();
    if (k.size() >= suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0)
      ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("bench --tune on 2D problems: per-kind entries, used by 2D runs, apart from 3D ones") {
  const std::string dir = scratch_dir("tune2d");
  std::filesystem::create_directories(dir);
  const CacheDir cache_dir(dir);
  const std::string tm_model = "models/plane_tm_scatter.ini";
  const std::string te_model = "models/plane_te_waveguide.ini";
  const std::string wave_model = "models/plane_wave.ini";
  const std::string cube_model = "models/pec_cavity.ini";

  // 2D tm: one entry, keyed "|2d tm|<kernel auto runs here>".
  auto r = run_clfdtd("bench --tune --problem=plane_tm --variant=auto --n=24 --repeats=1 --steps=2 "
                      "--json=" + dir + "/tm.json");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("tuned 2D tm: plane-") != std::string::npos);
  CHECK(r.out.find("tuned: ") == std::string::npos);  // no 3D search for a 2D problem list
  auto cache = nlohmann::json::parse(read_text(dir + "/tuning.json"));
  REQUIRE(cache.size() == 1);
  const std::string tm_key = cache.begin().key();
  const std::string kernel = cache.begin().value()["kernel"];
  CHECK(tm_key.find("|2d tm|" + kernel) != std::string::npos);
  CHECK(cache.begin().value()["gcells_per_s"].get<double>() > 0);
  CHECK(cache.begin().value()["problem"] == "plane_tm");

  const std::string tm_run = run_variant(tm_model, dir, "tm");
  CHECK_MESSAGE(tuned(tm_run), tm_run);
  CHECK(tm_run.rfind(kernel + " ", 0) == 0);
  CHECK_FALSE(tuned(run_variant(te_model, dir, "te")));     // a tm entry is not te's
  CHECK_FALSE(tuned(run_variant(cube_model, dir, "cube")));  // nor a 3D model's
  // device.workgroup given: the cache is not read.
  CHECK_FALSE(tuned(run_variant(tm_model, dir, "tm_wg", "--workgroup=2,4,1")));

  // A 3D entry beside it (the device's own key, as the 3D tuner writes it): taken by 3D runs,
  // not by 2D ones; the 2D entry keeps working.
  const auto rows = nlohmann::json::parse(read_text(dir + "/tm.json"));
  REQUIRE_FALSE(rows.empty());
  clfdtd::TunedChoice cube_choice;
  cube_choice.variant = clfdtd::KernelVariant::Rows;
  cube_choice.workgroup = {1, 4, 1};
  cube_choice.gcells_per_s = 1;
  cube_choice.n = 24;
  clfdtd::store_tuning(clfdtd::tuning_key(rows[0]["backend"], rows[0]["device"], rows[0]["driver"]),
                       cube_choice);
  const std::string cube_run = run_variant(cube_model, dir, "cube_tuned");
  CHECK_MESSAGE(cube_run.rfind("rows 1x4x1", 0) == 0, cube_run);
  CHECK(tuned(cube_run));
  CHECK_FALSE(tuned(run_variant(te_model, dir, "te_after_3d")));  // a 3D entry is not a 2D one
  CHECK(tuned(run_variant(tm_model, dir, "tm_after_3d")));

  // The wave: the kernel auto runs here plus pair-sum and cross, each under its own key; the
  // other entries stay.
  r = run_clfdtd("bench --tune --problem=plane_wave --variant=auto --n=24 --repeats=1 --steps=2");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("tuned 2D wave: wave-pairsum") != std::string::npos);
  CHECK(r.out.find("tuned 2D wave: wave-cross") != std::string::npos);
  cache = nlohmann::json::parse(read_text(dir + "/tuning.json"));
  CHECK(entries_ending(cache, "|2d wave|wave-pairsum") == 1);
  CHECK(entries_ending(cache, "|2d wave|wave-cross") == 1);
  CHECK(cache.contains(tm_key));
  CHECK(entries_ending(cache, "|kernels " + clfdtd::kernel_sources_digest()) == 1);  // the 3D one
  const std::string wave_run = run_variant(wave_model, dir, "wave");
  CHECK_MESSAGE(tuned(wave_run), wave_run);
  CHECK(tuned(run_variant(wave_model, dir, "wave_tile", "--variant=tile")));
  CHECK(tuned(run_variant(cube_model, dir, "cube_after_wave")));
}
