// Does the number of arrays a kernel streams limit its bandwidth? K float32 arrays copied to K
// others, one float4 per work-item, as K separate arrays (the field layout: Ex .. Hz apart) and as
// K float4 runs of 32 interleaved per block. Same bytes every K (six 512^3 arrays in and out).
// Build and run on the GPU machine (docs/BENCHMARKS.md, "Twelve arrays or two"):
//   nvcc -O3 -arch=sm_90 -o copy_streams tools/copy_streams/copy_streams.cu && ./copy_streams
#include <cstdio>
#include <cuda_runtime.h>
template<int K> __global__ void copyk(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = in[k * n + i];
#pragma unroll
    for (int k = 0; k < K; ++k) out[k * n + i] = v[k];
  }
}
// interleaved: K float4 per cell-block contiguous (AoS of float4 blocks)
template<int K> __global__ void copyk_il(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    size_t blk = i / 32, lane = i % 32;
    float4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = in[(blk * K + k) * 32 + lane];
#pragma unroll
    for (int k = 0; k < K; ++k) out[(blk * K + k) * 32 + lane] = v[k];
  }
}
template<class F> float timeit(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  f(); cudaDeviceSynchronize();
  cudaEventRecord(a); for (int r = 0; r < 20; ++r) f(); cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b); return ms / 20;
}
int main() {
  const size_t total = (size_t)6 * 134217728 / 4;  // 6 arrays of 512^3 floats as float4
  float4 *in, *out; cudaMalloc(&in, total * 16); cudaMalloc(&out, total * 16);
  cudaMemset(in, 0, total * 16); cudaMemset(out, 0, total * 16);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  for (int blocks : {sms * 8, sms * 16, sms * 32}) {
#define RUN(K, KER) { size_t n = total / K; float ms = timeit([&]{ KER<K><<<blocks, 256>>>(in, out, n); }); \
    printf("%-9s K=%d blocks=%d  %.3f ms  %.0f GB/s\n", #KER, K, blocks, ms, 2.0 * total * 16 / ms / 1e6); }
    RUN(1, copyk) RUN(2, copyk) RUN(3, copyk) RUN(6, copyk) RUN(3, copyk_il) RUN(6, copyk_il)
  }
  return 0;
}
