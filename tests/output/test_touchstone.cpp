// Touchstone text (output/touchstone.hpp): the option line, a two-port's S11 S21 S12 S22 order,
// rows of larger matrices with at most four pairs a line, version 2.0 with unequal references.
#include <doctest/doctest.h>

#include <complex>
#include <stdexcept>
#include <string>

#include "output/touchstone.hpp"

using namespace clfdtd;

namespace {

// S_ij = i + j / 10 (1-based), imaginary part -S_ij: every entry tells where it sits.
NetworkData numbered(std::size_t n, std::vector<double> refs) {
  NetworkData d;
  for (std::size_t k = 0; k < n; ++k) d.port_names.push_back("p" + std::to_string(k + 1));
  d.reference_ohm = std::move(refs);
  d.frequencies_hz = {1e9, 2.5e9};
  for (std::size_t f = 0; f < 2; ++f) {
    std::vector<std::complex<double>> s(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const double v = static_cast<double>(i + 1) + static_cast<double>(j + 1) / 10 + static_cast<double>(f);
        s[i * n + j] = {v, -v};
      }
    d.s.push_back(s);
  }
  return d;
}

}  // namespace

TEST_CASE("touchstone: extension and one port") {
  CHECK(touchstone_extension(1) == ".s1p");
  CHECK(touchstone_extension(12) == ".s12p");
  NetworkData d = numbered(1, {75});
  d.comments = {"a comment"};
  CHECK(touchstone_text(d) ==
        "! a comment\n"
        "# HZ S RI R 75\n"
        "1e+09 1.1 -1.1\n"
        "2.5e+09 2.1 -2.1\n");
}

TEST_CASE("touchstone: a two-port is written S11 S21 S12 S22") {
  CHECK(touchstone_text(numbered(2, {50, 50})) ==
        "# HZ S RI R 50\n"
        "1e+09 1.1 -1.1 2.1 -2.1 1.2 -1.2 2.2 -2.2\n"
        "2.5e+09 2.1 -2.1 3.1 -3.1 2.2 -2.2 3.2 -3.2\n");
}

TEST_CASE("touchstone: unequal references take version 2.0") {
  const std::string text = touchstone_text(numbered(2, {50, 100}));
  CHECK(text ==
        "[Version] 2.0\n"
        "# HZ S RI R 50\n"
        "[Number of Ports] 2\n"
        "[Two-Port Data Order] 21_12\n"
        "[Number of Frequencies] 2\n"
        "[Reference] 50 100\n"
        "[Network Data]\n"
        "1e+09 1.1 -1.1 2.1 -2.1 1.2 -1.2 2.2 -2.2\n"
        "2.5e+09 2.1 -2.1 3.1 -3.1 2.2 -2.2 3.2 -3.2\n"
        "[End]\n");
}

TEST_CASE("touchstone: rows of a five-port, four pairs a line") {
  const std::string text = touchstone_text(numbered(5, {50, 50, 50, 50, 50}));
  // The first frequency: five rows, each on a line of four pairs and one of the fifth.
  const std::string first =
      "1e+09 1.1 -1.1 1.2 -1.2 1.3 -1.3 1.4 -1.4\n"
      " 1.5 -1.5\n"
      " 2.1 -2.1 2.2 -2.2 2.3 -2.3 2.4 -2.4\n"
      " 2.5 -2.5\n"
      " 3.1 -3.1 3.2 -3.2 3.3 -3.3 3.4 -3.4\n"
      " 3.5 -3.5\n"
      " 4.1 -4.1 4.2 -4.2 4.3 -4.3 4.4 -4.4\n"
      " 4.5 -4.5\n"
      " 5.1 -5.1 5.2 -5.2 5.3 -5.3 5.4 -5.4\n"
      " 5.5 -5.5\n";
  CHECK(text.rfind("# HZ S RI R 50\n" + first + "2.5e+09 2.1 -2.1 ", 0) == 0);
}

TEST_CASE("touchstone: a three-port's rows each on a line") {
  const std::string text = touchstone_text(numbered(3, {50, 50, 50}));
  CHECK(text.rfind("# HZ S RI R 50\n"
                   "1e+09 1.1 -1.1 1.2 -1.2 1.3 -1.3\n"
                   " 2.1 -2.1 2.2 -2.2 2.3 -2.3\n"
                   " 3.1 -3.1 3.2 -3.2 3.3 -3.3\n"
                   "2.5e+09 ",
                   0) == 0);
}

TEST_CASE("touchstone: inconsistent data is a bug, not a file") {
  NetworkData d = numbered(2, {50, 50});
  d.s[1].pop_back();
  CHECK_THROWS_AS(touchstone_text(d), std::logic_error);
  d = numbered(2, {50});
  CHECK_THROWS_AS(touchstone_text(d), std::logic_error);
}
