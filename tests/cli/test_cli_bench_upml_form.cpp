// `clfdtd bench --upml-form` (device.upml_form, issue 22 item 1): each 3D tile or onepass case
// once per form, the form named in the variant column, bfloat16's auxiliaries counted at 2 B
// in the roofline bytes (one per field kind in a face cell, three elsewhere); rows and the 2D
// problems run once; unknown words refused. OpenCL on PoCL at n = 24, two steps (nothing timed
// against a bound).
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/bench_problems.hpp"
#include "bench/roofline.hpp"
#include "cli_helpers.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd_test;

TEST_CASE("bench --upml-form: one row per form, named in the variant, 2 B auxiliaries") {
  const std::string dir = scratch_dir("bench_upml_form");
  std::filesystem::create_directories(dir);
  const std::string json = dir + "/rows.json";
  const auto r = run_clfdtd(
      "bench --n=24 --repeats=1 --steps=2 --backend=opencl --variant=onepass,rows "
      "--problem=vacuum_upml --upml-form=float,bfloat16 --json=" + json);
  if (r.out.find("no OpenCL device") != std::string::npos) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto rows = nlohmann::json::parse(read_text(json));
  REQUIRE(rows.size() == 3);  // onepass x 2 forms, rows once
  const auto variant = [&](int i) { return rows[i]["variant"].get<std::string>(); };
  CHECK(variant(0).find("aux=") == std::string::npos);
  CHECK(variant(1).find(" aux=bfloat16") != std::string::npos);
  CHECK(variant(2).rfind("rows", 0) == 0);
  CHECK(variant(2).find("aux=") == std::string::npos);
  // vacuum_upml at n = 24: 10 layers on every face leave 4^3 plain cells. Of the PML cells,
  // 3 x 20 x 4 x 4 lie in one slab only and keep one D and one B (upml_lanes.h
  // upml_face_update), the others six auxiliaries. Each is read and written: 4 B in float, 2 B in
  // 16 bits (rows keeps float).
  const double cells = 24.0 * 24 * 24, face = 3 * 20 * 4 * 4, others = cells - 64 - face;
  const double aux_per_cell = (2 * face + 6 * others) / cells;
  const double b0 = rows[0]["bytes_per_cell"].get<double>();
  // onepass's plain bytes: 48 B of fields, the E ids per float4, the 3 B where they differ.
  const double mixed = clfdtd::mixed_e_id_share(
      clfdtd::SimulationModel::build(clfdtd::bench_problem("vacuum_upml", 24, 3)));
  CHECK(b0 == doctest::Approx(48.25 + 3 * mixed + 2 * 4 * aux_per_cell));
  CHECK(rows[1]["bytes_per_cell"].get<double>() == doctest::Approx(b0 - 2 * 2 * aux_per_cell));
  CHECK(rows[2]["bytes_per_cell"].get<double>() ==
        doctest::Approx(75 + 2 * 4 * aux_per_cell));
}

TEST_CASE("bench --upml-form: unknown forms refused naming the option") {
  const auto r = run_clfdtd("bench --n=24 --upml-form=float,half");
  CHECK(r.code == 2);
  CHECK(r.out.find("bench --upml-form") != std::string::npos);
  CHECK(r.out.find("'half'") != std::string::npos);
}
