// A number as error messages and file comments print it: ostream's shortest general form at the
// given significant digits (6, the stream's default, unless a caller needs more or fewer).
#pragma once

#include <sstream>
#include <string>

namespace clfdtd {

inline std::string number_text(double v, int digits = 6) {
  std::ostringstream s;
  s.precision(digits);
  s << v;
  return s.str();
}

}  // namespace clfdtd
