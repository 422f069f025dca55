#pragma once
// What the CUDA rungs share: the settings, the stack's host arrays (the
// harness's) and their device copies, allocated in prepare() (untimed);
// upload() sends the image and mask, download() brings the signal back.
// Each rung is then its compute(): which kernel, or (cuda_streams) the
// copies and the kernel in chunks.
#include <cstdint>
#include <span>

#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/cuda.cuh"

namespace ladder::spot_finding {

class DeviceStackRung : public CudaRung {
 public:
  explicit DeviceStackRung(const RungContext& context) : CudaRung(context), settings_(settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>();
    mask_ = inputs.at("mask").view<std::uint8_t>();
    signal_ = outputs.at("signal").view<std::uint8_t>();
    stack_ = stack_of(inputs.at("image"));
    d_image_ = device_buffer<std::uint16_t>(image_.size());
    d_mask_ = device_buffer<std::uint8_t>(mask_.size());
    d_signal_ = device_buffer<std::uint8_t>(signal_.size());
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    copy_to_device(d_mask_, mask_);
  }

  void download() override { copy_to_host(signal_, d_signal_); }

 protected:
  Settings settings_;
  std::span<const std::uint16_t> image_;
  std::span<const std::uint8_t> mask_;
  std::span<std::uint8_t> signal_;
  Stack stack_;
  DeviceBuffer<std::uint16_t> d_image_;
  DeviceBuffer<std::uint8_t> d_mask_;
  DeviceBuffer<std::uint8_t> d_signal_;
};

}  // namespace ladder::spot_finding
