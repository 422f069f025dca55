#include <cstdint>
void pm(const double* vertices, std::uint8_t* mask, long n, long height, long width) {
#pragma omp target teams distribute parallel for collapse(2)
    for (long y = 0; y < height; ++y) {
      for (long x = 0; x < width; ++x) {
        const double tx = static_cast<double>(x), ty = static_cast<double>(y);
        bool inside = false;
        double x0 = vertices[2 * (n - 1)], y0 = vertices[2 * (n - 1) + 1];
        for (long i = 0; i < n; ++i) {
          const double x1 = vertices[2 * i], y1 = vertices[2 * i + 1];
          const bool above1 = y1 >= ty;
          if ((y0 >= ty) != above1 && ((y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)) == above1) inside = !inside;
          x0 = x1;
          y0 = y1;
        }
        mask[y * width + x] = inside;
      }
    }
}
