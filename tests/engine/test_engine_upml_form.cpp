// device.upml_form = bfloat16: the tile and onepass variants with the UPML auxiliaries stored in
// 16 bits (cl_kernels/upml_aux.h) against the double reference engine, cell by cell, on the
// slab-edge model with layers on all six faces (physics_helpers.hpp: plain float4s next to every
// kind of slab, a dielectric block and a PEC plate reaching into the slabs, both sources' fields
// crossing them), magnetic and not. bfloat16 rounds each auxiliary to 8 significant bits every
// step, so its bound is looser than the float engine's 1e-4: on PoCL the worst component's max
// |diff| / max |value| was 2.9e-3 (non-magnetic) and 3.1e-3 (magnetic) here, up to 4.4e-3
// over all the layer sets of kSlabEdgeLayers (run once, not kept: too slow); the bound leaves
// about 2x. Each run must also differ from the float form's (else the form never reached the
// kernels).
#include <doctest/doctest.h>

#include "engine/engine_suite.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kBf16Tol = 1e-2;

DeviceConfig form_config(KernelVariant v, UpmlForm form) {
  DeviceConfig dev = engine_config(v);
  dev.upml_form = form;
  return dev;
}

// Max over the six components of max |a - b| / max |b| after both ran m.grid.steps steps.
double worst_ratio(Backend& a, Backend& b, const SimulationModel& m) {
  for (long s = 0; s < m.grid.steps; ++s) {
    a.step(s);
    b.step(s);
  }
  a.finish();
  b.finish();
  double worst = 0;
  for (int c = 0; c < 6; ++c) {
    std::vector<float> fa, fb;
    a.read_field(static_cast<Component>(c), fa);
    b.read_field(static_cast<Component>(c), fb);
    REQUIRE(fa.size() == fb.size());
    double max_b = 0, max_diff = 0;
    for (std::size_t i = 0; i < fa.size(); ++i) {
      max_b = std::max(max_b, std::abs(static_cast<double>(fb[i])));
      max_diff = std::max(max_diff, std::abs(static_cast<double>(fa[i]) - fb[i]));
    }
    REQUIRE(std::isfinite(max_diff));
    if (max_b > 0) worst = std::max(worst, max_diff / max_b);
  }
  return worst;
}

}  // namespace

TEST_CASE("device.upml_form = bfloat16 against the reference engine, tile and onepass") {
  for (bool magnetic : {false, true}) {
    const SimulationModel m = SimulationModel::build(slab_edge_config({2, 1, 3, 1, 3, 2}, magnetic, 160));
    for (device::Api api : engine_apis()) {
      for (KernelVariant v : {KernelVariant::Tile, KernelVariant::OnePass}) {
        INFO("api " << std::string(device::api_name(api)) << ", variant "
                    << std::string(variant_name(v)) << ", magnetic " << magnetic);
        auto engine = engine::make_gpu_engine(api, m, form_config(v, UpmlForm::BFloat16));
        CHECK(engine->kernel_variant().find(" aux=bfloat16") != std::string::npos);
        compare_with_reference(*engine, m, kBf16Tol);
        auto a = engine::make_gpu_engine(api, m, form_config(v, UpmlForm::BFloat16));
        auto b = engine::make_gpu_engine(api, m, form_config(v, UpmlForm::Float));
        const double r = worst_ratio(*a, *b, m);
        MESSAGE("bfloat16 vs float (" << std::string(variant_name(v)) << ", magnetic " << magnetic
                                      << "): " << r);
        CHECK(r > 0);
        CHECK(r <= kBf16Tol);
      }
    }
  }
}

TEST_CASE("device.upml_form: the rows variant ignores it") {
  const SimulationModel m = SimulationModel::build(slab_edge_config({2, 1, 3, 1, 3, 2}, false, 40));
  for (device::Api api : engine_apis()) {
    auto a = engine::make_gpu_engine(api, m, form_config(KernelVariant::Rows, UpmlForm::BFloat16));
    auto b = engine::make_gpu_engine(api, m, form_config(KernelVariant::Rows, UpmlForm::Float));
    CHECK(a->kernel_variant().find("aux=") == std::string::npos);
    CHECK(worst_ratio(*a, *b, m) == 0);
  }
}
