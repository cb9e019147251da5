// The wave solver's engine: checks, buffers, the stage list of one step (wave_engine.hpp).
#include "engine/wave/wave_engine.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

#include "backends/device_tables.hpp"
#include "engine/monitor_buffers.hpp"
#include "engine/variant_choice.hpp"
#include "engine/wave/wave_workgroup.hpp"
#include "engine/yee_fields.hpp"
#include "errors.hpp"
#include "model/grid_geometry.hpp"
#include "model/host_memory.hpp"

namespace clfdtd::engine {

namespace {

// The pair-sum tile (x, y): 8 x 32 work-items, 32 contiguous cells per row of the tile.
constexpr std::array<int, 3> kWavePairSumWorkgroup{8, 32, 1};
constexpr int kWaveRowsGroup = 8;   // rows per work-group (the 3D rows variant's 8)
constexpr int kWaveListGroup = 64;  // frame, sample and finite-check kernels: one item per entry

ConfigError wave_refuses(const std::string& key, const std::string& expected) {
  return ConfigError("", 0, key, expected);
}

// What the wave solver cannot run, refused by name (SimulationModel::build refuses the same for
// model files; this guards every other way of building a model).
void check_wave_grid(const SimulationModel& m) {
  if (!m.two_d() || m.equation != Equation::Wave) {
    throw wave_refuses("grid.equation", "the wave engine runs 2D models with equation = wave only");
  }
  if (m.mode != PlaneMode::Tm) {
    throw wave_refuses("grid.mode", "tm (equation = wave solves for Ez alone)");
  }
  if (m.id(Component::Ez).size() != m.layout.cells()) {
    throw DeviceError("wave engine: the model's Ez ids hold " +
                      std::to_string(m.id(Component::Ez).size()) + " entries, expected " +
                      std::to_string(m.layout.cells()));
  }
}

void check_wave_model(const SimulationModel& m, const WaveFrame& f) {
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    const MaterialEntry& e = m.materials.entry(static_cast<std::uint8_t>(id));
    if (!e.pec && e.mu_r != 1.0) {
      throw wave_refuses("material." + e.name + ".mu_r",
                         "1 with grid.equation = wave (no magnetic materials)");
    }
  }
  if (m.energy) throw wave_refuses("output.energy", "false with grid.equation = wave (no H)");
  for (const MonitorModel& mon : m.monitors) {  // the gather reads u for Ez and nothing else
    for (const DftRegion& r : mon.regions) {
      if (r.component != Component::Ez) {
        throw wave_refuses("monitor." + mon.name + ".type",
                           "dft or modes monitors of Ez with grid.equation = wave (no H)");
      }
    }
  }
  for (const ProbeSample& s : m.probes.samples) {
    if (s.component != Component::Ez) {
      throw wave_refuses("probe." + m.probes.probes[static_cast<std::size_t>(s.probe)].name +
                             ".fields",
                         "Ez only with grid.equation = wave");
    }
  }
  for (const SourceModel& s : m.sources) {
    const int i = s.cell[0], j = s.cell[1];
    if (s.component != Component::Ez) {
      throw wave_refuses("source." + s.name + ".axis", "z with grid.equation = wave");
    }
    if (i < f.i0 || i >= f.i1 || j < f.j0 || j >= f.j1) {
      throw wave_refuses("source." + s.name + ".position",
                         "a cell at least one cell inside the UPML with grid.equation = wave "
                         "(cells " + std::to_string(f.i0) + ".." + std::to_string(f.i1 - 1) +
                             " along x, " + std::to_string(f.j0) + ".." +
                             std::to_string(f.j1 - 1) + " along y), got (" + std::to_string(i) +
                             ", " + std::to_string(j) + ")");
    }
  }
}

// Sources merged per driven cell (their J summed in double), then differenced for the wave
// update: dJ[s] = J[s] - J[s-1] with J[-1] = 0, and one entry past the table, -J[steps-1], for
// the step where Yee's source switches off.
struct WaveSources {
  std::vector<std::int32_t> cells;  // cell_entry(Ez, padded index) per merged source
  std::vector<float> dj;            // [src * (steps + 1) + s]
  long steps = 0;                   // entries per source
};

WaveSources wave_sources(const SimulationModel& m) {
  WaveSources out;
  std::map<std::size_t, std::vector<double>> sums;
  std::size_t steps = 0;
  for (const SourceModel& s : m.sources) {
    auto& sum = sums[m.layout.index(s.cell[0], s.cell[1], 0)];
    sum.resize(std::max(sum.size(), s.j.size()), 0.0);
    for (std::size_t t = 0; t < s.j.size(); ++t) sum[t] += s.j[t];
    steps = std::max(steps, s.j.size());
  }
  if (steps == 0) return out;
  out.steps = static_cast<long>(steps) + 1;
  for (auto& [index, sum] : sums) {
    sum.resize(steps, 0.0);
    push_cell_entry(out.cells, static_cast<int>(Component::Ez), index);
    double prev = 0;
    for (double j : sum) {
      out.dj.push_back(static_cast<float>(j - prev));
      prev = j;
    }
    out.dj.push_back(static_cast<float>(-prev));
  }
  return out;
}

// The named buffers of the engine for m, the same list the constructor allocates.
std::vector<BufferNeed> wave_buffer_needs(const SimulationModel& m, const WaveFrame& f,
                                          const WaveSources& src, int batch_steps) {
  const std::size_t cells = m.layout.cells(), fl = sizeof(float);
  const auto nh = static_cast<std::size_t>(std::max(1, f.h_count()));
  const auto ne = static_cast<std::size_t>(std::max(1, f.e_count()));
  std::vector<BufferNeed> b;
  b.push_back({"u", cells * fl});
  b.push_back({"u_prev", cells * fl});
  b.push_back({"Ez ids", cells});
  b.push_back({"wave and Yee coefficient tables", 2 * 256 * 4 * fl});
  b.push_back({"placeholder", 32 * fl});
  b.push_back({"frame Hx Hy", 2 * nh * fl});
  b.push_back({"frame UPML auxiliaries (Bx By Dz)", 2 * nh * fl + ne * fl});
  b.push_back({"frame cell tables", nh * 2 * sizeof(std::int32_t) + ne * 5 * sizeof(std::int32_t)});
  b.push_back({"UPML profiles",
               2 * 4 * fl * (static_cast<std::size_t>(m.grid.n[0]) + m.grid.n[1])});
  b.push_back({"source table", src.dj.size() * fl + src.cells.size() * sizeof(std::int32_t)});
  b.push_back({"probe batch", m.probes.samples.size() *
                                  (static_cast<std::size_t>(batch_steps) * fl +
                                   2 * sizeof(std::int32_t))});
  b.push_back({"finite flag", sizeof(std::int32_t)});
  // The monitors' buffers, which the engine's MonitorRunner allocates.
  for (BufferNeed& n : monitor_buffer_needs(m, batch_steps)) b.push_back(std::move(n));
  return b;
}

std::vector<float> profile_floats(const AxisProfile& p) {
  std::vector<float> t = profile_table(p);
  if (t.empty()) t.assign(4, 0.0f);
  return t;
}

}  // namespace

const char* wave_kernel_name(WaveKernel k) {
  switch (k) {
    case WaveKernel::PairSum: return "wave-pairsum";
    case WaveKernel::Cross: return "wave-cross";
    case WaveKernel::Rows: return "wave-rows";
  }
  return "?";
}

WaveKernel choose_wave_kernel(const SimulationModel& m, KernelVariant v,
                              const std::string& device_type) {
  if (v == KernelVariant::OnePass || v == KernelVariant::TBlock) {
    throw wave_refuses("device.variant", "auto, tile or rows for a 2D model (onepass is 3D only, tblock too)");
  }
  if (v == KernelVariant::Rows) return WaveKernel::Rows;
  // Auto: the plain cross stencil on a GPU, the faster form there: on an H100 at 4000^2 to
  // 16000^2 cells it runs at 188-206 Gcells/s (13 bytes a cell moved, ~2.6 TB/s: the memory's
  // pace), the pair sums at 110-130 (their barriers and local-memory traffic cost more than the
  // adds they save), OpenCL and CUDA alike; rows on anything else (the 3D rule).
  if (v == KernelVariant::Auto) return device_type == "gpu" ? WaveKernel::Cross : WaveKernel::Rows;
  // The pair sums P(i,j) = u[i+1,j] + u[i,j+1] weight both axes alike: equal cells only.
  return m.grid.d[0] == m.grid.d[1] ? WaveKernel::PairSum : WaveKernel::Cross;
}

std::size_t wave_device_bytes(const SimulationModel& m, int probe_batch_steps) {
  check_wave_grid(m);
  const WaveFrame f = build_wave_frame(m);
  return total_bytes(wave_buffer_needs(m, f, wave_sources(m), probe_batch_steps));
}

WaveEngine::WaveEngine(const SimulationModel& m, const DeviceConfig& cfg, WaveKernel kernel,
                       std::unique_ptr<device::Device> dev)
    : DeviceEngine(m, std::move(dev)), kernel_(kernel) {
  check_wave_grid(m);
  frame_ = build_wave_frame(m);
  check_wave_model(m, frame_);
  // The pair sums weight both axes alike: unequal cells take the plain cross stencil.
  if (kernel_ == WaveKernel::PairSum && m.grid.d[0] != m.grid.d[1]) kernel_ = WaveKernel::Cross;
  const device::DeviceInfo& info = dev_->info();

  // Work-group: X along x, Y along y (tile forms), or X * Y rows (rows).
  std::array<int, 3> want = kernel_ == WaveKernel::Rows ? std::array<int, 3>{1, kWaveRowsGroup, 1}
                                                        : kWavePairSumWorkgroup;
  const WorkgroupRequest asked =
      wave_workgroup_request(cfg, kernel_, name(), device_description(), info.driver);
  tuned_ = asked.tuned;
  if (asked.workgroup) {
    const auto& w = *asked.workgroup;
    if (w[0] < 1 || w[1] < 1 || w[2] != 1) {
      throw wave_refuses("device.workgroup",
                         "X Y 1 with X, Y >= 1 for a 2D model, got " + std::to_string(w[0]) +
                             " " + std::to_string(w[1]) + " " + std::to_string(w[2]));
    }
    want = kernel_ == WaveKernel::Rows ? std::array<int, 3>{1, w[0] * w[1], 1} : w;
  }
  std::size_t max_group = info.max_group_size;
  const char* main_kernel = kernel_ == WaveKernel::PairSum ? "wave_pairsum"
                            : kernel_ == WaveKernel::Cross ? "wave_cross"
                                                           : "wave_rows";
  device::Program program;
  for (;;) {
    // Clamp to the device, then halve the larger side while the group is too large.
    want[0] = std::max(1, std::min<int>(want[0], static_cast<int>(info.max_group_dims[1])));
    want[1] = std::max(1, std::min<int>(want[1], static_cast<int>(info.max_group_dims[0])));
    while (static_cast<std::size_t>(want[0]) * want[1] > max_group) {
      int& big = want[0] > want[1] ? want[0] : want[1];
      big = (big + 1) / 2;
    }
    device::Defines defines;
    if (kernel_ == WaveKernel::PairSum) defines = {{"WAVE_WX", want[0]}, {"WAVE_WY", want[1]}};
    program = dev_->program(defines);
    const std::size_t limit = program.kernel(main_kernel).max_group_size();
    if (static_cast<std::size_t>(want[0]) * want[1] <= limit || max_group <= 1) break;
    max_group = limit;  // the kernel allows fewer work-items than the device (registers)
  }
  wg_ = want;

  build_buffers();
  build_stages(program);
  // The monitors' buffers were checked with the engine's (wave_buffer_needs).
  std::array<FieldSet, 2> sets;
  for (std::size_t p = 0; p < 2; ++p) {
    sets[p].fill(placeholder_);
    sets[p][static_cast<int>(Component::Ez)] = u_[p];  // u after an even / odd number of steps
  }
  start_monitors(MonitorInputs{*dev_, program, m, sets});
  dev_->finish();  // surface upload errors here, not in the first step
}

// Waits for queued work before the buffers and kernels go (they free themselves after this).
WaveEngine::~WaveEngine() { wait_before_release(); }

void WaveEngine::build_buffers() {
  const WaveSources src = wave_sources(m_);
  if (src.dj.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw DeviceError("source table of " + std::to_string(src.dj.size()) +
                      " entries exceeds 2^31 (fewer steps or sources)");
  }
  const std::vector<BufferNeed> needs = wave_buffer_needs(m_, frame_, src, kProbeBatchSteps);
  const std::size_t bytes = total_bytes(needs);
  check_device_memory(bytes, needs, dev_->info(), dev_->available_bytes());
  check_host_memory(gpu_engine_host_bytes(m_, bytes, dev_->info().type == "cpu"),
                    std::string("the ") +
                        (dev_->info().api == device::Api::Cuda ? "CUDA" : "OpenCL") +
                        " wave engine on " + dev_->info().name);

  device::Device& dev = *dev_;
  auto upload = [&dev](const void* data, std::size_t n) {
    device::Buffer b = dev.alloc(n);
    dev.upload(b, data, n);
    return b;
  };
  auto zeros = [&dev](std::size_t n) {
    device::Buffer b = dev.alloc(n);
    dev.fill_zero(b);
    return b;
  };
  const std::size_t cells = m_.layout.cells(), fl = sizeof(float);
  for (auto& u : u_) u = zeros(cells * fl);
  id_ = upload(m_.id(Component::Ez).data(), cells);

  // Per id, all 256 (no id reads past the end): wave (1 + ca, ca, cb dt/mu0, cb) and Yee
  // (ca, cb, inv_eps_r, 0).
  const double dt = m_.grid.dt;
  std::vector<float> wtab(4 * 256, 0.0f), etab(4 * 256, 0.0f);
  for (std::size_t id = 0; id < m_.materials.size(); ++id) {
    const ECoefficients e = m_.materials.e_coefficients(static_cast<std::uint8_t>(id), dt);
    wtab[4 * id] = static_cast<float>(1 + e.ca);
    wtab[4 * id + 1] = static_cast<float>(e.ca);
    wtab[4 * id + 2] = static_cast<float>(e.cb * dt / kMu0);
    wtab[4 * id + 3] = static_cast<float>(e.cb);
    etab[4 * id] = static_cast<float>(e.ca);
    etab[4 * id + 1] = static_cast<float>(e.cb);
    etab[4 * id + 2] = static_cast<float>(e.inv_eps_r);
  }
  wcoef_ = upload(wtab.data(), wtab.size() * fl);
  ecoef_ = upload(etab.data(), etab.size() * fl);
  placeholder_ = zeros(32 * fl);

  const auto nh = static_cast<std::size_t>(std::max(1, frame_.h_count()));
  const auto ne = static_cast<std::size_t>(std::max(1, frame_.e_count()));
  hx_ = zeros(nh * fl);
  hy_ = zeros(nh * fl);
  bx_ = zeros(nh * fl);
  by_ = zeros(nh * fl);
  dz_ = zeros(ne * fl);
  h_cells_ = frame_.h_cells.empty()
                 ? zeros(2 * sizeof(std::int32_t))
                 : upload(frame_.h_cells.data(), frame_.h_cells.size() * sizeof(std::int32_t));
  e_cells_ = frame_.e_cells.empty()
                 ? zeros(5 * sizeof(std::int32_t))
                 : upload(frame_.e_cells.data(), frame_.e_cells.size() * sizeof(std::int32_t));
  const AxisProfile* prof[4] = {&m_.upml.integer[0], &m_.upml.half[0], &m_.upml.integer[1],
                                &m_.upml.half[1]};
  for (int p = 0; p < 4; ++p) {
    const std::vector<float> t = profile_floats(*prof[p]);
    profiles_[p] = upload(t.data(), t.size() * fl);
  }

  nsrc_ = static_cast<int>(src.cells.size() / 2);
  src_steps_ = src.steps;
  if (nsrc_ > 0) {
    src_cells_ = upload(src.cells.data(), src.cells.size() * sizeof(std::int32_t));
    src_dj_ = upload(src.dj.data(), src.dj.size() * fl);
  }

  nsamples_ = static_cast<int>(m_.probes.samples.size());
  if (nsamples_ > 0) {
    std::vector<std::int32_t> tab;
    for (const ProbeSample& s : m_.probes.samples) {
      push_cell_entry(tab, static_cast<int>(s.component), m_.layout.index(s.cell[0], s.cell[1], 0));
    }
    probe_cells_ = upload(tab.data(), tab.size() * sizeof(std::int32_t));
    probe_batch_ = zeros(static_cast<std::size_t>(nsamples_) * kProbeBatchSteps * fl);
  }
  finite_flag_ = zeros(sizeof(std::int32_t));
}

void WaveEngine::build_stages(const device::Program& program) {
  const FieldLayout& L = m_.layout;
  const int nx = L.nx, ny = L.ny, nyp = static_cast<int>(L.nyp());
  const auto& layers = m_.upml.layers;
  const double dx = m_.grid.d[0], dy = m_.grid.d[1], dt = m_.grid.dt;
  const float db = static_cast<float>(dt / kMu0), dt_eps0 = static_cast<float>(dt / kEps0);
  const float inv_dx = static_cast<float>(1 / dx), inv_dy = static_cast<float>(1 / dy);
  const float inv_dx2 = static_cast<float>(1 / (dx * dx)), inv_dy2 = static_cast<float>(1 / (dy * dy));
  const WaveFrame& f = frame_;
  auto list_range = [](int n) {
    return device::Range(round_up(static_cast<std::size_t>(n), kWaveListGroup));
  };

  // Each stage holds one kernel object per parity p: it reads u[p] and writes u[1 - p].
  auto stage = [&](Phase phase, const char* name, auto&& bind) {
    Stage st;
    st.phase = phase;
    for (int p = 0; p < 2; ++p) {
      st.kernel[p] = program.kernel(name);
      Args a(st.kernel[p]);
      bind(a, u_[static_cast<std::size_t>(p)], u_[static_cast<std::size_t>(1 - p)]);
      st.value_arg = a.value_arg();
    }
    return st;
  };

  if (f.h_count() > 0) {
    Stage st = stage(Phase::H, "wave_frame_h", [&](Args& a, const device::Buffer& u,
                                                   const device::Buffer&) {
      a << hx_ << hy_ << bx_ << by_ << u << h_cells_ << profiles_[0] << profiles_[1]
        << profiles_[2] << profiles_[3] << f.h_count() << nx << ny << nyp << layers[0]
        << layers[1] << layers[2] << layers[3] << db << inv_dx << inv_dy;
    });
    st.global = list_range(f.h_count());
    st.local = device::Range(kWaveListGroup);
    plan_.push_back(st);
  }
  if (f.e_count() > 0) {
    Stage st = stage(Phase::E, "wave_frame_e", [&](Args& a, const device::Buffer& u,
                                                   const device::Buffer& u_next) {
      a << u_next << u << id_ << ecoef_ << hx_ << hy_ << dz_ << e_cells_ << profiles_[0]
        << profiles_[2] << f.e_count() << nx << ny << nyp << layers[0] << layers[1]
        << layers[2] << layers[3] << dt_eps0 << inv_dx << inv_dy;
    });
    st.global = list_range(f.e_count());
    st.local = device::Range(kWaveListGroup);
    plan_.push_back(st);
  }
  if (f.interior_cells() > 0) {
    const char* name = kernel_ == WaveKernel::PairSum ? "wave_pairsum"
                       : kernel_ == WaveKernel::Cross ? "wave_cross"
                                                      : "wave_rows";
    Stage st = stage(Phase::E, name, [&](Args& a, const device::Buffer& u,
                                         const device::Buffer& u_next) {
      a << u_next << u << id_ << wcoef_ << nx << ny << nyp << f.i0 << f.i1 << f.j0 << f.j1;
      if (kernel_ == WaveKernel::PairSum) {
        a << inv_dx2;
      } else {
        a << inv_dx2 << inv_dy2;
      }
    });
    const auto rows = static_cast<std::size_t>(f.i1 - f.i0);
    const auto cols = static_cast<std::size_t>(f.j1 - f.j0);
    if (kernel_ == WaveKernel::Rows) {
      const auto w = static_cast<std::size_t>(wg_[1]);
      st.global = device::Range(round_up(rows, w));
      st.local = device::Range(w);
    } else {
      const auto wx = static_cast<std::size_t>(wg_[0]), wy = static_cast<std::size_t>(wg_[1]);
      st.global = device::Range(round_up(cols, wy), round_up(rows, wx));
      st.local = device::Range(wy, wx);
    }
    plan_.push_back(st);
  }
  if (nsrc_ > 0) {
    Stage st = stage(Phase::Sources, "add_sources", [&](Args& a, const device::Buffer&,
                                                        const device::Buffer& u_next) {
      a << placeholder_ << placeholder_ << u_next << placeholder_ << placeholder_ << id_ << ecoef_
        << src_cells_ << src_dj_ << nsrc_ << static_cast<int>(src_steps_);
      a.value();
    });
    st.global = list_range(nsrc_);
    st.local = device::Range(kWaveListGroup);
    st.runs_below = src_steps_;
    plan_.push_back(st);
  }

  if (nsamples_ > 0) {
    probes_ = stage(Phase::Sample, "sample_probes", [&](Args& a, const device::Buffer& u,
                                                        const device::Buffer&) {
      const device::Buffer& ph = placeholder_;
      a << ph << ph << u << ph << ph << ph << probe_cells_ << probe_batch_ << nsamples_;
      a.value();
    });
    probes_.global = list_range(nsamples_);
    probes_.local = device::Range(kWaveListGroup);
  }
  const int count4 = static_cast<int>(L.cells() / 4);
  finite_ = stage(Phase::Sample, "check_finite", [&](Args& a, const device::Buffer& u,
                                                     const device::Buffer&) {
    a << u << u << u << u << u << u << finite_flag_ << count4;
  });
  finite_.global = list_range(count4);
  finite_.local = device::Range(kWaveListGroup);
}

std::string WaveEngine::kernel_variant() const { return variant_text(wave_kernel_name(kernel_)); }

std::size_t WaveEngine::device_bytes(const SimulationModel& m) const {
  return wave_device_bytes(m, kProbeBatchSteps);
}

// One step s -> s + 1: the frame's H to (s + 1/2) dt, then Ez to (s + 1) dt (the frame by Yee,
// the interior by the wave update, both into the other buffer), then the sources' differenced J.
void WaveEngine::step(long s) {
  run_step_stages(plan_, s);
  parity_ ^= 1;
}

void WaveEngine::read_field(Component c, std::vector<float>& out) {
  const FieldLayout& L = m_.layout;
  out.assign(static_cast<std::size_t>(L.nx) * L.ny, 0.0f);
  if (c != Component::Ez || out.empty()) return;
  read_unpadded(u_[static_cast<std::size_t>(parity_)], out);
}

std::unique_ptr<WaveEngine> make_wave_engine(device::Api api, const SimulationModel& m,
                                             const DeviceConfig& cfg, WaveKernel kernel) {
  return std::make_unique<WaveEngine>(m, cfg, kernel, open_engine_device(api, cfg));
}

std::unique_ptr<Backend> make_wave_engine(device::Api api, const SimulationModel& m,
                                          const DeviceConfig& cfg) {
  std::unique_ptr<device::Device> dev = open_engine_device(api, cfg);
  const WaveKernel kernel = choose_wave_kernel(m, cfg.variant, dev->info().type);
  return std::make_unique<WaveEngine>(m, cfg, kernel, std::move(dev));
}

}  // namespace clfdtd::engine
