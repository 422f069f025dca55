#pragma once
// LADDER_WIDEST_VECTORS before a function: compiled three times, for
// AVX-512 (x86-64-v4), AVX2 with FMA (x86-64-v3) and plain x86-64, and the
// widest the processor has is chosen when the program starts (OpenCV and
// OpenBLAS dispatch the same way). The build itself targets plain x86-64,
// whose SSE2 holds 4 floats and has no fused multiply-add, so that one
// binary runs on any x86-64 machine.
//
// LADDER_X86_DISPATCH is 1 where that is possible (GCC or Clang for x86-64,
// not nvcc), for code that picks among its own x86 versions by hand.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__CUDACC__)
#define LADDER_X86_DISPATCH 1
#define LADDER_WIDEST_VECTORS [[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
#else
#define LADDER_X86_DISPATCH 0
#define LADDER_WIDEST_VECTORS
#endif
