// Touchstone writer: see touchstone.hpp.
#include "output/touchstone.hpp"

#include <cstdio>
#include <stdexcept>

namespace clfdtd {

namespace {

bool same_references(const std::vector<double>& r) {
  for (double v : r)
    if (v != r.front()) return false;
  return true;
}

// The order the values of one frequency are written in: a two-port's S11 S21 S12 S22 (both
// versions, 2.0 saying so in [Two-Port Data Order]), any other size row by row.
std::vector<std::size_t> value_order(std::size_t n) {
  if (n == 2) return {0, 2, 1, 3};
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < n * n; ++k) order.push_back(k);
  return order;
}

}  // namespace

std::string touchstone_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string touchstone_extension(std::size_t ports) { return ".s" + std::to_string(ports) + "p"; }

std::string touchstone_text(const NetworkData& d) {
  const std::size_t n = d.port_names.size();
  if (n == 0 || d.reference_ohm.size() != n || d.s.size() != d.frequencies_hz.size())
    throw std::logic_error("touchstone_text: inconsistent network data");
  const bool v1 = same_references(d.reference_ohm);
  std::string text;
  if (!v1) text += "[Version] 2.0\n";
  for (const std::string& c : d.comments) text += "! " + c + "\n";
  text += "# HZ S RI R " + touchstone_number(d.reference_ohm.front()) + "\n";
  if (!v1) {
    text += "[Number of Ports] " + std::to_string(n) + "\n";
    if (n == 2) text += "[Two-Port Data Order] 21_12\n";
    text += "[Number of Frequencies] " + std::to_string(d.frequencies_hz.size()) + "\n";
    text += "[Reference]";
    for (double r : d.reference_ohm) text += " " + touchstone_number(r);
    text += "\n[Network Data]\n";
  }
  const std::vector<std::size_t> order = value_order(n);
  // Rows of a matrix above two ports start on their own line; a line holds at most four pairs.
  const std::size_t per_row = n > 2 ? n : order.size();
  for (std::size_t f = 0; f < d.frequencies_hz.size(); ++f) {
    const std::vector<std::complex<double>>& s = d.s[f];
    if (s.size() != n * n) throw std::logic_error("touchstone_text: a matrix of the wrong size");
    text += touchstone_number(d.frequencies_hz[f]);
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t in_row = k % per_row;
      if (k > 0 && (in_row == 0 || in_row % 4 == 0)) text += "\n";
      const std::complex<double> v = s[order[k]];
      text += " " + touchstone_number(v.real()) + " " + touchstone_number(v.imag());
    }
    text += "\n";
  }
  if (!v1) text += "[End]\n";
  return text;
}

}  // namespace clfdtd
