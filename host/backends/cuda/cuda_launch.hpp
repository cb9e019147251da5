// Launch geometry and memory checks of the CUDA backend, kept free of any device so tests can
// exercise them with made-up limits (cf. opencl/cl_launch.hpp).
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>


namespace clfdtd {

// Index into `compiled` (block shapes x y z4 of this build, the default first) of the requested
// shape: nullopt gives 0, an exact match its index. A shape nvcc did not build throws
// ConfigError (key device.workgroup) listing the shapes and naming -DCLFDTD_CUDA_TILES; unlike
// OpenCL there is no clamping: threads past the grid load zeros and store nothing, as in OpenCL.
int choose_cuda_tile(const std::optional<std::array<int, 3>>& requested,
                     const std::vector<std::array<int, 3>>& compiled);

// The block (x, y, z) of the plain and rows variants, OpenCL's work-group rule (cl_launch.hpp):
// `requested` (default `fallback`), each axis at least 1 and clamped to `grid` and to `limits`
// (CUDA's block limits along the axes the variant maps x, y, z to); then, while the product
// exceeds max_threads, the largest axis is halved (rounding up).
std::array<int, 3> choose_cuda_block(const std::optional<std::array<int, 3>>& requested,
                                     const std::array<int, 3>& fallback,
                                     const std::array<int, 3>& grid,
                                     const std::array<int, 3>& limits, int max_threads);

// plain: cells, x along CUDA z (<= 64 threads), z along CUDA x; rows: (x, y) rows along CUDA
// (y, x), z = 1.
constexpr std::array<int, 3> kDefaultCudaPlainBlock{1, 1, 64};
constexpr std::array<int, 3> kCudaPlainLimits{64, 1024, 1024};
constexpr std::array<int, 3> kDefaultCudaRowsBlock{1, 8, 1};
// The tile auto picks on an untuned GPU when this build compiled it (OpenCL's choice too).
constexpr std::array<int, 3> kCudaAutoTile{2, 4, 16};
// The onepass variant's (planes, y, z4), as the OpenCL backend's kDefaultOnePassWorkgroup.
constexpr std::array<int, 3> kDefaultCudaOnePassBlock{8, 2, 32};
constexpr std::array<int, 3> kCudaRowsLimits{1024, 1024, 1};

// Blocks along CUDA x, y, z = (ceil(n_z / b_z), ceil(ny / b_y), ceil(nx / b_x)) for the extent
// (nx, ny, n_z) and the block (b_x, b_y, b_z), z in the variant's units (float4s or cells).
// Throws DeviceError when y or z exceeds CUDA's 65535 blocks (then a larger block helps).
std::array<unsigned, 3> cuda_block_grid(const std::array<int, 3>& extent,
                                        const std::array<int, 3>& block);

// Blocks of `block` threads that cover n items (at least one block).
unsigned cuda_linear_blocks(std::size_t n, unsigned block);

// Throws OutOfMemoryError when needed_bytes exceeds free_bytes: "model needs X bytes (Y MiB),
// device <name> has Z bytes (W MiB) free of T bytes (cudaMemGetInfo); ...".
void check_cuda_memory(std::size_t needed_bytes, std::size_t free_bytes, std::size_t total_bytes,
                       const std::string& device);

}  // namespace clfdtd
