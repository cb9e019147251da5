// Patent step 1-1-4: source time functions w(t), dimensionless, peak magnitude about 1.
//   gaussian        exp(-((t-t0)/tau)^2),               tau = 1/(pi f)   (spectrum e^-1 at f)
//   gaussian_pulse  sin(2 pi f (t-t0)) exp(-((t-t0)/tau)^2), tau = 2/(pi bandwidth)
//   ricker          (1 - 2 (pi f (t-t0))^2) exp(-(pi f (t-t0))^2)   (peak frequency f)
//   sine            sin(2 pi f t) r(t), r = (1 - cos(pi t / T))/2 for t < T = 3/f, then 1
// t0 (delay) defaults: gaussian and gaussian_pulse 4 tau, ricker 1.5/f (sine: 0; a given delay
// shifts its switch-on to t0, w = 0 before).
#pragma once
#include <string>
#include "config/run_config.hpp"

namespace clfdtd {

double waveform_value(const SourceConfig& src, double t_s);
double default_delay_s(const SourceConfig& src);
// The waveform's word in the model file (the loader maps word i of the option to kind i).
std::string waveform_name(WaveformKind w);

}  // namespace clfdtd
