// The embedded cl_kernels/ files assembled into compilable source text: local #include lines
// replaced by the included file's text (recursively, each file once), with #line directives so a
// build log names the original file and line. embedded_program_source() (device.hpp) is every
// .cl file through this; one file alone is how the tests check that it includes what it uses.
#pragma once
#include <string>

namespace clfdtd::device {

// cl_kernels/<name> with everything it includes, as the only file of a program. Throws DeviceError
// when <name>, or a file it includes, is not embedded (naming the including file and line).
std::string embedded_file_source(const std::string& name);

}  // namespace clfdtd::device
