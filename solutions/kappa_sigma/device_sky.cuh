#pragma once
// What the CUDA rungs share: κ, the sky and its outputs (the harness's
// host arrays) and their device copies, allocated in prepare() (untimed);
// upload() sends the sky, download() brings the mask and the statistics
// back. Each rung is then its compute(): kernels queued from the host
// (cuda), or the whole clip in one launch (cuda_persistent).
#include <cstdint>
#include <span>

#include "bench/problems/kappa_sigma/given/clip.hpp"
#include "ladder/cuda.cuh"

namespace ladder::kappa_sigma {

class DeviceSkyRung : public CudaRung {
 public:
  explicit DeviceSkyRung(const RungContext& context) : CudaRung(context), kappa_(kappa_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    statistics_ = outputs.at("statistics").view<double>();
    n_ = static_cast<unsigned>(image_.size());
    d_image_ = device_buffer<float>(image_.size());
    d_mask_ = device_buffer<std::uint8_t>(mask_.size());
    d_statistics_ = device_buffer<double>(statistics_.size());
  }

  void upload() override { copy_to_device(d_image_, image_); }

  void download() override {
    copy_to_host(mask_, d_mask_);
    copy_to_host(statistics_, d_statistics_);
  }

 protected:
  double kappa_;
  std::span<const float> image_;
  std::span<std::uint8_t> mask_;
  std::span<double> statistics_;
  unsigned n_ = 0;
  DeviceBuffer<float> d_image_;
  DeviceBuffer<std::uint8_t> d_mask_;
  DeviceBuffer<double> d_statistics_;
};

}  // namespace ladder::kappa_sigma
