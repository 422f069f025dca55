// Times YACCLAB's BUF and BKE (Allegretti, Bolelli and Grana, IEEE TPDS
// 2019) on an image written by `ladder generate labelling`, and checks their
// labels against the expected ones as a partition (their labels are root
// indices + 1, not numbered 1 ... N).
//
// Their kernels are not in this repository: run.sh cuts them out of
// prittt/YACCLAB's cuda/src/labeling_allegretti_2019_{BUF,BKE}.cu into
// buf_kernels.cuh and bke_kernels.cuh, with this file's stand-in for the one
// OpenCV type they use. Launches as in each class's PerformLabeling().
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

// The stand-in for cv::cuda::PtrStepSz: a pitched pointer (step in bytes).
namespace cv {
namespace cuda {
template <class T>
struct PtrStepSz {
  T* data;
  size_t step;
  int cols, rows;
  static constexpr size_t elem_size = sizeof(T);
  __host__ __device__ operator T*() const { return data; }
};
using PtrStepSzb = PtrStepSz<unsigned char>;
using PtrStepSzi = PtrStepSz<int>;
}  // namespace cuda
}  // namespace cv

namespace buf {
#include "buf_kernels.cuh"
}
namespace bke {
#include "bke_kernels.cuh"
}

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e = (call);                                                                      \
    if (e != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
      std::exit(2);                                                                              \
    }                                                                                            \
  } while (0)

// A C-order .npy of version 1 or 2: its shape and its bytes.
static std::vector<char> read_npy(const std::string& path, const char* descr, int& rows, int& cols) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (all.size() < 12 || std::memcmp(all.data(), "\x93NUMPY", 6) != 0) {
    std::fprintf(stderr, "%s: not a .npy\n", path.c_str());
    std::exit(2);
  }
  const int major = all[6];
  const size_t header_len = major == 1 ? size_t(uint8_t(all[8])) | size_t(uint8_t(all[9])) << 8
                                       : size_t(uint8_t(all[8])) | size_t(uint8_t(all[9])) << 8 |
                                             size_t(uint8_t(all[10])) << 16 | size_t(uint8_t(all[11])) << 24;
  const size_t start = (major == 1 ? 10 : 12) + header_len;
  const std::string header(all.data() + (major == 1 ? 10 : 12), header_len);
  if (header.find(descr) == std::string::npos || header.find("'fortran_order': False") == std::string::npos ||
      std::sscanf(header.c_str() + header.find("'shape': (") + 10, "%d, %d", &rows, &cols) != 2) {
    std::fprintf(stderr, "%s: expected a C-order 2-D %s array: %s\n", path.c_str(), descr, header.c_str());
    std::exit(2);
  }
  return std::vector<char>(all.begin() + long(start), all.end());
}

// Reads every byte of a buffer larger than the L2, so that each timed labelling
// starts with a cold cache, as ladder's timings do.
__global__ void evict(const int4* buffer, size_t n, int* sink) {
  int4 acc = {0, 0, 0, 0};
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = buffer[i];
    acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x12345678) *sink = 1;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s IMAGE.npy EXPECTED_LABELS.npy REPETITIONS\n", argv[0]);
    return 2;
  }
  int rows = 0, cols = 0, erows = 0, ecols = 0;
  const std::vector<char> image = read_npy(argv[1], "'|u1'", rows, cols);
  const std::vector<char> expected_bytes = read_npy(argv[2], "'<i4'", erows, ecols);
  const int repetitions = std::atoi(argv[3]);
  if (erows != rows || ecols != cols || cols % 2 || image.size() != size_t(rows) * cols) {
    std::fprintf(stderr, "image and labels disagree, or the width is odd\n");
    return 2;
  }
  std::vector<int> expected(size_t(rows) * cols);
  std::memcpy(expected.data(), expected_bytes.data(), expected.size() * sizeof(int));

  unsigned char* d_img = nullptr;
  int* d_labels = nullptr;
  CHECK(cudaMalloc(&d_img, image.size()));
  CHECK(cudaMalloc(&d_labels, expected.size() * sizeof(int)));
  CHECK(cudaMemcpy(d_img, image.data(), image.size(), cudaMemcpyHostToDevice));
  const cv::cuda::PtrStepSzb img{d_img, size_t(cols), cols, rows};
  const cv::cuda::PtrStepSzi labels{d_labels, size_t(cols) * sizeof(int), cols, rows};
  // BKE keeps one flag byte in the labels of the last block (YACCLAB's choice
  // for images of more than one row and column).
  unsigned char* last_pixel =
      reinterpret_cast<unsigned char*>(d_labels) + (size_t(rows - 2) * cols + (cols - 2)) * sizeof(int);
  const dim3 block(16, 16), grid(((cols + 1) / 2 + 15) / 16, ((rows + 1) / 2 + 15) / 16);

  const size_t evict_ints4 = (size_t(256) << 20) / sizeof(int4);
  int4* d_evict = nullptr;
  int* d_sink = nullptr;
  CHECK(cudaMalloc(&d_evict, evict_ints4 * sizeof(int4)));
  CHECK(cudaMemset(d_evict, 1, evict_ints4 * sizeof(int4)));
  CHECK(cudaMalloc(&d_sink, sizeof(int)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  auto run = [&](const char* name, auto&& label) {
    std::vector<float> ms;
    for (int r = 0; r <= repetitions; ++r) {  // r = 0: warm-up, untimed
      evict<<<1024, 256>>>(d_evict, evict_ints4, d_sink);
      CHECK(cudaEventRecord(start));
      label();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaGetLastError());
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (r > 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    // The labels must be the expected partition: background 0 in both, and
    // one-to-one between their labels and the expected ones.
    std::vector<int> got(expected.size());
    CHECK(cudaMemcpy(got.data(), d_labels, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    std::unordered_map<int, int> to_expected, from_expected;
    bool same = true;
    for (size_t i = 0; i < got.size() && same; ++i) {
      if ((got[i] == 0) != (expected[i] == 0)) same = false;
      if (got[i] == 0 || !same) continue;
      const auto a = to_expected.emplace(got[i], expected[i]);
      const auto b = from_expected.emplace(expected[i], got[i]);
      same = a.first->second == expected[i] && b.first->second == got[i];
    }
    std::printf("%s %dx%d: median %.1f us, min %.1f, max %.1f over %zu; %zu components, %s\n", name, rows, cols,
                1000 * ms[ms.size() / 2], 1000 * ms.front(), 1000 * ms.back(), ms.size(), to_expected.size(),
                same ? "the expected partition" : "NOT the expected partition");
    return same;
  };

  bool ok = run("BUF", [&] {
    buf::InitLabeling<<<grid, block>>>(labels);
    buf::Merge<<<grid, block>>>(img, labels);
    buf::Compression<<<grid, block>>>(labels);
    buf::FinalLabeling<<<grid, block>>>(img, labels);
  });
  ok &= run("BKE", [&] {
    bke::InitLabeling<<<grid, block>>>(img, labels, last_pixel);
    bke::Compression<<<grid, block>>>(labels);
    bke::Merge<<<grid, block>>>(labels, last_pixel);
    bke::Compression<<<grid, block>>>(labels);
    bke::FinalLabeling<<<grid, block>>>(img, labels);
  });
  return ok ? 0 : 1;
}
