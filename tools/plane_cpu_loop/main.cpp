// clfdtd_plane_loop: times seed 000's CPU baseline (plane_loop.hpp, float, one thread) at the sizes
// given and prints one CSV row per size:
//   n,cells,steps,seconds,gcells_per_s,mode_error
// cells = n*n updated per step; seconds = the wall time of `steps` steps after one warm-up step;
// mode_error = max |Ez - Ez_exact| / max |Ez at step 0| against the discrete cavity mode the run
// started from (plane_loop.hpp), so every timed row also says the loop computed the right thing.
// Usage: clfdtd_plane_loop [--steps S | --seconds T] [--courant C] N [N ...]
//   --steps S    steps per size (default: about T seconds' worth, T = 1, at least 5)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "plane_loop.hpp"

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "clfdtd_plane_loop: %s\nusage: clfdtd_plane_loop [--steps S | --seconds T] "
               "[--courant C] N [N ...]  (N: cells per side, 2..65536)\n",
               why.c_str());
  std::exit(2);
}

double number(const std::string& key, const char* text, double lo, double hi) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= lo && v <= hi))
    usage(key + ": a number in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" +
          text + "'");
  return v;
}

// max |Ez - a_n mode| / max |mode| over the interior nodes (not over a_n: it crosses zero).
double mode_error(const plane_loop::PlaneTm<float>& g, long steps) {
  const double a = g.mode_amplitude(steps);
  double err = 0, peak = 0;
  for (int i = 1; i < g.nx; ++i) {
    const double si = std::sin(plane_loop::kPi * i / g.nx);
    for (int j = 1; j < g.ny; ++j) {
      const double mode = si * std::sin(plane_loop::kPi * j / g.ny);
      const double d = std::fabs(g.ez[g.at(i, j)] - a * mode);
      if (!std::isfinite(d)) return d;  // a NaN would vanish in std::max
      err = std::max(err, d);
      peak = std::max(peak, std::fabs(mode));
    }
  }
  return peak > 0 ? err / peak : err;
}

}  // namespace

int main(int argc, char** argv) {
  long steps = 0;
  double seconds = 1, courant = 0.99;
  std::vector<int> sizes;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if ((arg == "--steps" || arg == "--seconds" || arg == "--courant") && a + 1 >= argc)
      usage(arg + " needs a value");
    if (arg == "--steps") {
      steps = static_cast<long>(number(arg, argv[++a], 1, 1e9));
    } else if (arg == "--seconds") {
      seconds = number(arg, argv[++a], 1e-3, 3600);
    } else if (arg == "--courant") {
      courant = number(arg, argv[++a], 1e-3, 1);
    } else if (arg == "-h" || arg == "--help") {
      usage("times a single-threaded 2D Yee tm loop (float, vacuum, PEC walls)");
    } else {
      sizes.push_back(static_cast<int>(number("N", argv[a], 2, 65536)));
    }
  }
  if (sizes.empty()) usage("no size given");

  std::printf("n,cells,steps,seconds,gcells_per_s,mode_error\n");
  for (int n : sizes) {
    plane_loop::PlaneTm<float> g(n, n, 1e-3, plane_loop::PlaneTm<float>::courant_dt(1e-3, courant));
    g.set_mode();
    double t0 = now_s();
    g.step();  // warm-up: pages touched, caches filled
    long run = steps;
    if (run <= 0) run = std::max(5L, static_cast<long>(std::ceil(seconds / std::max(now_s() - t0, 1e-9))));
    t0 = now_s();
    for (long s = 0; s < run; ++s) g.step();
    const double t = now_s() - t0;
    const double cells = static_cast<double>(n) * n;
    std::printf("%d,%.0f,%ld,%.6g,%.6g,%.3g\n", n, cells, run, t, cells * run / t / 1e9,
                mode_error(g, run + 1));
    std::fflush(stdout);
  }
  return 0;
}
