# Turns cl_kernels/*.h and *.cl into a C++ table of (name, text) so the program needs no files at
# run time. Invoked by CMake with -DDIR=<cl_kernels> -DOUT=<generated .cpp>.
file(GLOB files RELATIVE ${DIR} ${DIR}/*.h ${DIR}/*.cl)
list(SORT files)
set(body "")
foreach(f ${files})
  file(READ ${DIR}/${f} text)
  # Raw string literal delimiter that cannot occur in OpenCL C.
  string(APPEND body "  {\"${f}\", R\"clfdtd_src(${text})clfdtd_src\"},\n")
endforeach()
file(WRITE ${OUT}.tmp
"// Generated from cl_kernels/ by tools/embed_kernels.cmake; do not edit.
#include \"backends/embedded_kernels.hpp\"
namespace clfdtd {
const std::vector<EmbeddedKernelFile>& embedded_kernel_files() {
  static const std::vector<EmbeddedKernelFile> files = {
${body}  };
  return files;
}
}  // namespace clfdtd
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
