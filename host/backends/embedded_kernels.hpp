// The cl_kernels/ sources, embedded at build time (tools/embed_kernels.cmake), so the program loads
// its device code without looking for files. Used by the OpenCL backend (and kernel tests).
#pragma once
#include <string>
#include <vector>

namespace clfdtd {

struct EmbeddedKernelFile {
  const char* name;  // file name inside cl_kernels/, e.g. "update_h.cl"
  const char* text;
};

const std::vector<EmbeddedKernelFile>& embedded_kernel_files();

}  // namespace clfdtd
