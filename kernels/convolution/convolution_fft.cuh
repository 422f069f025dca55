#pragma once
// The one step of the cuFFT convolution that cuFFT does not do: multiply
// the image's spectrum by the kernel's, point by point, with the 1/N that
// cuFFT's unnormalised inverse transform leaves out. One thread per
// complex value; n (the spectrum's length) is below 2^31.
#include <cufft.h>

__global__ void multiply_spectra(cufftComplex* __restrict__ image, const cufftComplex* __restrict__ kernel, int n,
                                 float scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const cufftComplex u = image[i], v = kernel[i];
  image[i] = make_cuComplex(scale * (u.x * v.x - u.y * v.y), scale * (u.x * v.y + u.y * v.x));
}
