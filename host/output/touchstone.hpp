// Touchstone files (.s1p, .s2p, ...): the S-parameter format that circuit simulators and network
// analysers read. Version 1.1 where every port has the same reference resistance, version 2.0
// (its [Reference] line) where they differ. Frequencies in Hz, values as real and imaginary parts.
#pragma once
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

namespace clfdtd {

struct NetworkData {
  std::vector<std::string> port_names;  // port k is Touchstone's port k + 1
  std::vector<double> reference_ohm;    // one per port
  std::vector<double> frequencies_hz;
  // Per frequency, N x N row-major: s[f][i * N + j] = S_(i+1)(j+1), the wave out of port i + 1
  // for the wave into port j + 1.
  std::vector<std::vector<std::complex<double>>> s;
  std::vector<std::string> comments;    // written first, each after "! "
};

// A value as the files write it: nine significant digits.
std::string touchstone_number(double v);

// ".s<N>p" for N ports.
std::string touchstone_extension(std::size_t ports);

// The whole file. Version 1.1 orders a two-port's values S11 S21 S12 S22 and every larger matrix
// by rows; at most four pairs a line, a row's continuation on the next lines.
std::string touchstone_text(const NetworkData& d);

}  // namespace clfdtd
