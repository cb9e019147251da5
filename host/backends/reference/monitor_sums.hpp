// The monitors of a host engine in double (model/monitors.hpp), for an engine that keeps its
// fields as double arrays over the model's layout: per step, point and frequency
// acc += x e^(-i 2 pi f t) D dt; the modal projection as a plain sum over the padded cells times
// dV. The 2D reference engine (PlaneReference) holds one; the arrays come from a callback so the
// engine may keep, swap or leave out (a component the model does not carry) its arrays freely.
#pragma once
#include <complex>
#include <functional>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd {

class MonitorSums {
public:
  // The current array of component c over m.layout (layout.cells() values), or nullptr for a
  // component the engine does not carry (it reads zero).
  using FieldOf = std::function<const std::vector<double>*(Component c)>;

  // Checks the host memory for the sums, each region inside the grid and each modes monitor's
  // data against the layout (DeviceError naming the monitor). `batch_steps`: slots of the
  // projection batch. Keeps a reference to m.
  MonitorSums(const SimulationModel& m, int batch_steps, FieldOf field);

  // Backend's monitor calls (backends/backend.hpp), same meaning and errors.
  void accumulate_dft(long step);
  void read_dft(int monitor, std::vector<std::complex<double>>& out) const;
  void sample_modes(int monitor, int slot);
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) const;

private:
  const SimulationModel& m_;
  int batch_steps_;
  FieldOf field_;
  // Per monitor (model order): [point * frequencies + f] (flux, dft, farfield), the projection
  // batch [slot * nmodes + mode] (modes); empty for the other kind.
  std::vector<std::vector<std::complex<double>>> dft_;
  std::vector<std::vector<double>> mode_batch_;
};

}  // namespace clfdtd
