// `clfdtd bench`: the standard problems on one device, a list, or every device; each backend and
// kernel variant asked for; a table on stdout, CSV and JSON files on request; --tune searches
// work-group shapes and stores the device's winner (tuning_cache.hpp).
#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench_problems.hpp"
#include "bench/bench_runner.hpp"
#include "bench/cyl_problems.hpp"
#include "bench/plane_problems.hpp"
#include "bench/projection_bench.hpp"
#include "bench/tuner.hpp"
#include "cli/commands.hpp"
#include "config/options.hpp"
#include "errors.hpp"
#include "output/text_file.hpp"
#include "device/device.hpp"

namespace po = boost::program_options;

namespace clfdtd::cli {
namespace {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    const auto a = item.find_first_not_of(' '), b = item.find_last_not_of(' ');
    if (a != std::string::npos) out.push_back(item.substr(a, b - a + 1));
  }
  return out;
}

int parse_int(const std::string& key, const std::string& v, int lo, int hi) {
  try {
    std::size_t used = 0;
    const long n = std::stol(v, &used);
    if (used == v.size() && n >= lo && n <= hi) return static_cast<int>(n);
  } catch (const std::exception&) {
  }
  throw ConfigError("", 0, key, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                                    ", got '" + v + "'");
}

KernelVariant parse_variant(const std::string& v) {
  for (KernelVariant k :
       {KernelVariant::Auto, KernelVariant::Tile, KernelVariant::OnePass, KernelVariant::Rows,
        KernelVariant::TBlock})
    if (v == variant_name(k)) return k;
  throw ConfigError("", 0, "bench --variant",
                    "all, auto, tile, onepass, rows or tblock, got '" + v + "'");
}

BackendKind parse_backend(const std::string& v) {
  if (v == "opencl") return BackendKind::OpenCl;
  if (v == "cuda") return BackendKind::Cuda;
  if (v == "reference") return BackendKind::Reference;
  throw ConfigError("", 0, "bench --backend", "opencl, cuda or reference, got '" + v + "'");
}

// One device to measure: backend + select, and whether it is a GPU (for the default sizes).
struct Target {
  BackendKind backend;
  std::string select;
  bool gpu = true;
};

std::vector<Target> targets(const std::vector<std::string>& backends,
                            const std::vector<std::string>& selects, bool all_devices) {
  std::vector<Target> out;
  for (const auto& b : backends) {
    const BackendKind kind = parse_backend(b);
    if (kind == BackendKind::OpenCl || kind == BackendKind::Cuda) {
      const device::Api api = kind == BackendKind::Cuda ? device::Api::Cuda : device::Api::OpenCL;
      const auto devices = device::list_devices(api);
      if (devices.empty()) {
        throw DeviceError(std::string("bench: no ") + (kind == BackendKind::Cuda ? "CUDA" : "OpenCL") +
                          " device found (or the " + b + " backend is not in this build)");
      }
      std::vector<std::size_t> picked;
      if (all_devices) {
        for (std::size_t n = 0; n < devices.size(); ++n) picked.push_back(n);
      } else if (selects.empty()) {
        picked.push_back(static_cast<std::size_t>(device::choose_device(devices, "")));
      } else {
        for (const auto& s : selects)
          picked.push_back(static_cast<std::size_t>(device::choose_device(devices, s)));
      }
      for (std::size_t n : picked) {
        out.push_back({kind, std::to_string(devices[n].index), devices[n].type != "cpu"});
      }
    } else {
      out.push_back({kind, "", false});
    }
  }
  return out;
}

void print_row(const BenchRow& r) {
  std::printf("%-9s %-40s %-22s %5d %6ld %8.3f %8.2f %5.1f %8.1f %8.1f %5.1f%%  %s\n", r.backend.c_str(),
              r.variant.c_str(), r.problem.c_str(), r.n, r.steps, r.seconds * 1e3, r.gcells_per_s,
              r.bytes_per_cell, r.achieved_gbs, r.copy_gbs, 100 * r.roofline_ratio, r.timer.c_str());
  std::fflush(stdout);
}

void print_header(const std::string& device) {
  std::printf("\n%s\n%-9s %-40s %-22s %5s %6s %8s %8s %5s %8s %8s %6s  %s\n", device.c_str(), "backend",
              "variant", "problem", "N", "steps", "ms", "Gcells/s", "B/cell", "GB/s", "copyGB/s",
              "roof", "timer");
}

// The largest 3D cube and 2D plane --n takes (the 2D ones reach seed 000's 16000^2 and past).
constexpr int kMaxCube = 2047;  // 2048^3 is 2^31 float4 lanes, one past the limit
constexpr int kMaxPlane = 65536;

// The size a problem runs at when --n is not given: the 3D cubes and 2D planes that keep a GPU
// busy (512^3 = 134 M cells, 4096^2 = 16.8 M) or take a CPU about as long (160^3, 1024^2).
// Whether a problem is n x n (2D or cylindrical (r, z)): --n reaches kMaxPlane for it.
bool is_flat_problem(const std::string& p) { return is_plane_problem(p) || is_cyl_problem(p); }

int default_size(const std::string& problem, bool gpu) {
  if (is_plane_problem(problem)) return gpu ? 4096 : 1024;
  // Cylindrical: 4000 x 4000 (r, z) x 3 modes = 48 M cell-modes, the first H100 timing's size.
  if (is_cyl_problem(problem)) return gpu ? 4000 : 512;
  return gpu ? 512 : 160;
}

// "all": every variant the problem has kernels for (onepass has none in 2D).
std::vector<KernelVariant> variants_for(const std::string& problem, bool all,
                                        const std::vector<KernelVariant>& asked) {
  if (!all) return asked;
  if (is_plane_problem(problem) || is_cyl_problem(problem))
    return {KernelVariant::Tile, KernelVariant::Rows};
  return {KernelVariant::Tile, KernelVariant::OnePass, KernelVariant::Rows, KernelVariant::TBlock};
}

nlohmann::json row_json(const BenchRow& r) {
  return {{"device", r.device},         {"driver", r.driver},
          {"backend", r.backend},       {"variant", r.variant},
          {"problem", r.problem},       {"n", r.n},
          {"cells", r.cells},           {"pml_cells", r.pml_cells},
          {"steps", r.steps},           {"repeats", r.repeats},
          {"seconds", r.seconds},       {"gcells_per_s", r.gcells_per_s},
          {"bytes_per_cell", r.bytes_per_cell}, {"achieved_gbs", r.achieved_gbs},
          {"copy_gbs", r.copy_gbs},     {"roofline_ratio", r.roofline_ratio},
          {"timer", r.timer},           {"commit", r.commit},
          {"device_bytes", r.device_bytes}, {"storage_bytes_per_cell", r.storage_bytes_per_cell}};
}

}  // namespace

int bench_command(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: clfdtd bench [options]\n\n"
      "Times the standard problems (vacuum_upml: n^3 vacuum with 10-layer UPML on all faces;\n"
      "pec_cube: the same with PEC walls, no UPML; sphere: a dielectric sphere lit by a dipole;\n"
      "ferrite: the same sphere magnetic, mu_r = 2; vacuum_upml@L, sphere@L, ferrite@L: L layers\n"
      "instead of 10)\n"
      "and the 2D ones, n x n with a line current (plane_tm, plane_te, plane_wave: 10-layer UPML\n"
      "on the four edges; plane_tm_pec, plane_te_pec, plane_wave_pec: PEC walls), and the\n"
      "cylindrical ones, n x n (r, z) cells, modes 0 1 2 (cyl_cpml: 10-layer CPML on r = R and both\n"
      "z ends; cyl_pec: PEC walls), whose Gcells/s count cells x modes.\n"
      "Gcells/s = cells x steps / seconds (median of the repeats, warm-up excluded, device timers\n"
      "where the backend has usable ones: the timer column says device or wall); B/cell = the\n"
      "model's compulsory bytes per cell update; roof = achieved GB/s over the device's copy\n"
      "bandwidth measured in the same run.\n\noptions");
  desc.add_options()
      ("help,h", "this text")
      ("device", po::value<std::vector<std::string>>()->composing(),
       "device (index, gpu, cpu or part of a name); repeat or comma-separate for several")
      ("all-devices", "every device of each backend asked for")
      ("backend", po::value<std::string>()->default_value("opencl"),
       "opencl, cuda, reference, or a comma list")
      ("variant", po::value<std::string>()->default_value("all"),
       "all (tile, onepass, tblock, rows; tile, rows for 2D), auto, or a comma list of them")
      ("workgroup", po::value<std::string>(), "x,y,z work-group for every variant (default: each variant's own)")
      ("staging", po::value<std::string>()->default_value("global"),
       "cylindrical tile variant: global, local (device.cyl_staging), or a comma list of both")
      ("align", po::value<std::string>()->default_value("true"),
       "cylindrical tile variant: true, false (device.cyl_align), or a comma list of both")
      ("upml-form", po::value<std::string>()->default_value("float"),
       "3D tile and onepass: how the UPML auxiliaries are stored, float, bfloat16 "
       "(device.upml_form), or a comma list (each 3D case runs once per form)")
      ("tblock-staging", po::value<std::string>()->default_value("auto"),
       "tblock: where E at s + 1 of the plane before waits, auto, local, registers "
       "(device.tblock_staging), or a comma list (--variant=tblock runs once per form; --tune "
       "and --variant=auto take the first; the tuning cache keeps no form: a run takes its own)")
      ("problem", po::value<std::string>()->default_value("vacuum_upml,pec_cube,sphere"),
       "comma list of vacuum_upml, pec_cube, sphere, ferrite (the sphere magnetic, mu_r = 2; "
       "vacuum_upml@L, sphere@L, ferrite@L: L UPML layers), "
       "plane_tm, plane_te, plane_wave, plane_tm_pec, plane_te_pec, plane_wave_pec, cyl_cpml, cyl_pec")
      ("n", po::value<std::string>(),
       "comma list of sizes, cells per side: n^3 cubes (24..2047; default 512 on GPUs, 160 on CPUs), "
       "n x n planes (24..65536; default 4096 on GPUs, 1024 on CPUs), n x n (r, z) grids "
       "(24..65536; default 4000 on GPUs, 512 on CPUs)")
      ("steps", po::value<long>()->default_value(0), "steps per repeat (0: about 0.25 s worth)")
      ("repeats", po::value<int>()->default_value(5), "timed repeats; the median is reported")
      ("outputs", "also time vacuum_upml with a probe sampled every step and with one snapshot")
      ("monitors", "also time vacuum_upml with a closed flux box of 10 frequencies, against the same time loop without it")
      ("projection", po::value<std::string>()->implicit_value("128,100"),
       "time the projection of an n^3 field on m modes on the device and in the reference engine "
       "(n,m; default 128,100: seed 004's 2 million cells on 100 modes) and exit")
      ("tune", "search work-group shapes of every variant and store the device's fastest (3D: "
               "for models with UPML on vacuum_upml, for models without on pec_cube, tblock too); "
               "with 2D problems, the work-group of each 2D kernel --variant runs (auto for all; "
               "plane_wave: also wave-pairsum and wave-cross), stored per device, tm/te/wave and kernel; "
               "with a cylindrical problem, the work-group of each cylindrical kernel --variant runs "
               "(the tile one with both stagings), stored per device and kernel (kind cyl)")
      ("csv", po::value<std::string>(), "append the rows to this CSV file (header written if new)")
      ("json", po::value<std::string>(), "write the rows to this JSON file");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw ConfigError("", 0, "bench", std::string(e.what()) + " (see clfdtd bench --help)");
  }
  if (vm.count("help")) {
    std::ostringstream os;
    os << desc;
    std::fputs(os.str().c_str(), stdout);
    return 0;
  }

  std::vector<std::string> selects;
  if (vm.count("device"))
    for (const auto& d : vm["device"].as<std::vector<std::string>>())
      for (const auto& s : split_list(d)) selects.push_back(s);

  std::vector<KernelVariant> variants;
  const std::string vtext = vm["variant"].as<std::string>();
  const bool all_variants = vtext == "all";
  if (!all_variants)
    for (const auto& v : split_list(vtext)) variants.push_back(parse_variant(v));
  std::optional<std::array<int, 3>> workgroup;
  if (vm.count("workgroup")) {
    const auto w = split_list(vm["workgroup"].as<std::string>());
    if (w.size() != 3) throw ConfigError("", 0, "bench --workgroup", "3 integers x,y,z");
    workgroup = std::array<int, 3>{parse_int("bench --workgroup", w[0], 1, 1024),
                                   parse_int("bench --workgroup", w[1], 1, 1024),
                                   parse_int("bench --workgroup", w[2], 1, 1024)};
  }
  // The cylindrical tile's choices: every (staging, align) pair asked, for the cyl_* problems.
  struct CylChoice {
    bool local, align;
  };
  std::vector<CylChoice> cyl_choices;
  {
    std::vector<bool> stagings, aligns;
    for (const auto& v : split_list(vm["staging"].as<std::string>())) {
      if (v != "global" && v != "local")
        throw ConfigError("", 0, "bench --staging", "global, local or both, got '" + v + "'");
      stagings.push_back(v == "local");
    }
    for (const auto& v : split_list(vm["align"].as<std::string>())) {
      if (v != "true" && v != "false")
        throw ConfigError("", 0, "bench --align", "true, false or both, got '" + v + "'");
      aligns.push_back(v == "true");
    }
    if (stagings.empty() || aligns.empty())
      throw ConfigError("", 0, "bench --staging/--align", "at least one value each");
    for (bool l : stagings)
      for (bool a : aligns) cyl_choices.push_back({l, a});
  }
  std::vector<UpmlForm> upml_forms;
  for (const auto& v : split_list(vm["upml-form"].as<std::string>())) {
    const char* const words[] = {"float", "bfloat16"};
    const auto w = std::find(std::begin(words), std::end(words), v);
    if (w == std::end(words))
      throw ConfigError("", 0, "bench --upml-form", "float, bfloat16 or a comma list, got '" + v + "'");
    upml_forms.push_back(static_cast<UpmlForm>(w - std::begin(words)));
  }
  if (upml_forms.empty()) throw ConfigError("", 0, "bench --upml-form", "at least one form");
  std::vector<TBlockStaging> tblock_stagings;
  const OptionSpec& staging_key = *find_option("device.tblock_staging");  // its words' order
  for (const auto& v : split_list(vm["tblock-staging"].as<std::string>())) {
    const int w = word_index(staging_key, v);
    if (w < 0)
      throw ConfigError("", 0, "bench --tblock-staging",
                        "auto, local, registers or a comma list, got '" + v + "'");
    tblock_stagings.push_back(static_cast<TBlockStaging>(w));
  }
  if (tblock_stagings.empty())
    throw ConfigError("", 0, "bench --tblock-staging", "at least one form");
  const auto problems = split_list(vm["problem"].as<std::string>());
  for (const auto& p : problems) bench_problem(p, 16, 1);  // rejects unknown names up front
  const bool any_plane = std::any_of(problems.begin(), problems.end(), is_flat_problem);
  const bool any_cube = vm.count("outputs") || vm.count("monitors") ||
                        !std::all_of(problems.begin(), problems.end(), is_flat_problem);
  if (any_plane && (std::count(variants.begin(), variants.end(), KernelVariant::OnePass) ||
                    std::count(variants.begin(), variants.end(), KernelVariant::TBlock)))
    throw ConfigError("", 0, "bench --variant",
                      "auto, tile or rows with a 2D or cylindrical problem (onepass and tblock have "
                      "no kernels there)");
  std::vector<int> given_sizes;
  if (vm.count("n")) {
    for (const auto& s : split_list(vm["n"].as<std::string>())) {
      const int n = parse_int("bench --n", s, 24, any_plane ? kMaxPlane : kMaxCube);
      if (any_cube && n > kMaxCube)
        throw ConfigError("", 0, "bench --n",
                          "24.." + std::to_string(kMaxCube) + " for the 3D problems, got '" + s + "'");
      given_sizes.push_back(n);
    }
  }
  const int repeats = vm["repeats"].as<int>();
  const long steps = vm["steps"].as<long>();
  if (repeats < 1 || repeats > 1000) throw ConfigError("", 0, "bench --repeats", "1..1000");
  if (steps < 0) throw ConfigError("", 0, "bench --steps", "0 (auto) or more");

  // The devices last: a bad option is refused (exit 2) on a machine without them too.
  const auto tlist = targets(split_list(vm["backend"].as<std::string>()), selects, vm.count("all-devices") > 0);

  std::vector<BenchRow> rows;
  std::ofstream csv;
  if (vm.count("csv")) {
    const std::string path = vm["csv"].as<std::string>();
    const bool fresh = !std::ifstream(path).good();
    csv.open(path, std::ios::app);
    if (!csv) throw OutputError::from_errno("open for appending", path, errno);
    if (fresh) csv << bench_csv_header() << "\n";
  }
  auto keep = [&](const BenchRow& r) {
    print_row(r);
    rows.push_back(r);
    if (csv.is_open()) {
      csv << bench_csv_row(r) << "\n" << std::flush;
      if (!csv) throw OutputError::from_errno("write", vm["csv"].as<std::string>(), errno);
    }
  };

  for (const Target& t : tlist) {
    // One pass per given size; without --n one pass, each problem at its default size (0 here).
    const std::vector<int> sizes = given_sizes.empty() ? std::vector<int>{0} : given_sizes;
    auto size_of = [&](const std::string& problem, int n) {
      return n > 0 ? n : default_size(problem, t.gpu);
    };
    DeviceConfig dev;
    dev.backend = t.backend;
    dev.select = t.select;
    dev.workgroup = workgroup;
    dev.tblock_staging = tblock_stagings.front();  // --tune's and --variant=auto's
    // The copy bandwidth once per device, on a small model's backend.
    double copy_gbs = 0;
    {
      BenchCase probe;
      probe.problem = "pec_cube";
      probe.n = 24;
      probe.device = dev;
      probe.device.workgroup.reset();  // --workgroup is for the measured variants, not this probe
      probe.repeats = 1;
      probe.steps = 1;
      const BenchRow r = run_bench_case(probe, -1);
      copy_gbs = r.copy_gbs;
      print_header(r.device + (r.driver.empty() ? "" : ", driver " + r.driver) +
                   (copy_gbs > 0 ? ", copy bandwidth " + std::to_string(static_cast<int>(copy_gbs)) + " GB/s" : ""));
    }
    if (vm.count("projection")) {
      const auto nm = split_list(vm["projection"].as<std::string>());
      if (nm.size() != 2) throw ConfigError("", 0, "bench --projection", "n,m (e.g. 128,100)");
      const ProjectionTiming pt =
          time_projection(dev, parse_int("bench --projection n", nm[0], 24, 1024),
                          parse_int("bench --projection m", nm[1], 1, 1000), repeats);
      std::printf("projection: %ld cells on %d modes: device %.6g s, reference (1 core) %.6g s, "
                  "%.1fx; device vs reference %.2g of the largest value\n",
                  pt.cells, pt.modes, pt.device_s, pt.host_s,
                  pt.device_s > 0 ? pt.host_s / pt.device_s : 0.0, pt.max_rel_diff);
      continue;
    }
    // --tune: the 3D search when a 3D problem is asked for, and the 2D work-groups of each kind
    // of 2D problem asked for (tm, te, wave; the first problem of a kind is measured).
    if (vm.count("tune") && any_cube) {
      const TuneOutcome t_out =
          tune_device(dev, size_of("vacuum_upml", sizes.front()), std::min(repeats, 3), copy_gbs, keep,
                      steps);
      // Both winners: models with UPML (vacuum_upml) and without (pec_cube), each its own entry.
      for (const TunedChoice* b : {&t_out.best, &t_out.best_no_upml}) {
        if (b->gcells_per_s <= 0) continue;
        // tblock's planes 0: each model's grid picks them (variant_choice.hpp).
        const std::string x = b->workgroup[0] > 0 ? std::to_string(b->workgroup[0]) : "P";
        std::printf("%s %s %sx%dx%d, %.2f Gcells/s on %s, stored in %s\n",
                    b == &t_out.best ? "tuned:" : "tuned without UPML:", variant_name(b->variant),
                    x.c_str(), b->workgroup[1], b->workgroup[2], b->gcells_per_s,
                    b->problem.c_str(), tuning_file().c_str());
      }
    }
    if (vm.count("tune")) {
      const auto cyl = std::find_if(problems.begin(), problems.end(), is_cyl_problem);
      if (cyl != problems.end()) {
        DeviceConfig cdev = dev;
        cdev.cyl_align = cyl_choices.front().align;
        const PlaneTuneOutcome c_out =
            tune_cyl(cdev, *cyl, size_of(*cyl, sizes.front()),
                     all_variants ? std::vector<KernelVariant>{KernelVariant::Auto} : variants,
                     std::min(repeats, 3), copy_gbs, keep);
        for (const TunedWorkgroup& b : c_out.best)
          std::printf("tuned cylindrical: %s %dx%dx%d, %.2f Gcells/s, stored in %s\n",
                      b.kernel.c_str(), b.workgroup[0], b.workgroup[1], b.workgroup[2],
                      b.gcells_per_s, tuning_file().c_str());
      }
      std::vector<std::string> kinds_done;
      for (const auto& p : problems) {
        if (!is_plane_problem(p)) continue;
        const std::string kind = plane_problem_kind(p);
        if (std::count(kinds_done.begin(), kinds_done.end(), kind)) continue;
        kinds_done.push_back(kind);
        const PlaneTuneOutcome p_out =
            tune_plane(dev, p, size_of(p, sizes.front()),
                       all_variants ? std::vector<KernelVariant>{KernelVariant::Auto} : variants,
                       std::min(repeats, 3), copy_gbs, keep);
        for (const TunedWorkgroup& b : p_out.best)
          std::printf("tuned 2D %s: %s %dx%dx%d, %.2f Gcells/s, stored in %s\n", kind.c_str(),
                      b.kernel.c_str(), b.workgroup[0], b.workgroup[1], b.workgroup[2],
                      b.gcells_per_s, tuning_file().c_str());
      }
    }
    for (int n : sizes) {
      for (const auto& p : problems) {
        const std::vector<KernelVariant> problem_variants = variants_for(p, all_variants, variants);
        for (KernelVariant v : problem_variants) {
          // The cylindrical tile's staging and alignment choices (rows has neither).
          const bool choices = is_cyl_problem(p) && v != KernelVariant::Rows;
          const std::vector<CylChoice> each =
              choices ? cyl_choices : std::vector<CylChoice>{cyl_choices.front()};
          // The UPML auxiliaries' storage forms of the 3D tile and onepass kernels.
          const bool forms = !is_flat_problem(p) && v != KernelVariant::Rows;
          const std::vector<UpmlForm> each_form =
              forms ? upml_forms : std::vector<UpmlForm>{upml_forms.front()};
          const std::vector<TBlockStaging> each_staging =
              v == KernelVariant::TBlock ? tblock_stagings
                                         : std::vector<TBlockStaging>{tblock_stagings.front()};
          for (const CylChoice& ch : each) {
            for (UpmlForm form : each_form) {
              for (TBlockStaging staging : each_staging) {
                BenchCase c;
                c.problem = p;
                c.n = size_of(p, n);
                c.device = dev;
                c.device.variant = v;
                c.device.cyl_local_staging = ch.local;
                c.device.cyl_align = ch.align;
                c.device.upml_form = form;
                c.device.tblock_staging = staging;
                c.repeats = repeats;
                c.steps = steps;
                keep(run_bench_case(c, copy_gbs));
              }
            }
          }
        }
      }
      std::vector<const char*> output_problems;
      if (vm.count("outputs") || vm.count("monitors")) output_problems.push_back("vacuum_upml+loop");
      if (vm.count("outputs")) {
        output_problems.push_back("vacuum_upml+probes");
        output_problems.push_back("vacuum_upml+snapshot");
      }
      if (vm.count("monitors")) output_problems.push_back("vacuum_upml+flux");
      if (!output_problems.empty()) {
        for (const char* p : output_problems) {
          BenchCase c;
          c.problem = p;
          c.n = size_of(p, n);
          c.device = dev;
          c.device.variant = KernelVariant::Auto;
          c.repeats = std::min(repeats, 3);
          c.steps = steps;
          keep(run_bench_case(c, copy_gbs));
        }
      }
    }
  }
  if (vm.count("json")) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& r : rows) all.push_back(row_json(r));
    write_text_file(vm["json"].as<std::string>(), all.dump(2) + "\n");
  }
  return 0;
}

}  // namespace clfdtd::cli
