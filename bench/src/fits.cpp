#include "ladder/fits.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "ladder/error.hpp"

#ifdef LADDER_HAVE_CFITSIO
#include <fitsio.h>
#endif

namespace ladder {

bool is_fits_path(const std::string& path) {
  std::string name = path.substr(0, path.find('['));  // cfitsio's "image.fits[1]" names an extension
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name.ends_with(".gz")) name.resize(name.size() - 3);
  return name.ends_with(".fits") || name.ends_with(".fit") || name.ends_with(".fts");
}

#ifndef LADDER_HAVE_CFITSIO

bool fits_supported() { return false; }

Array read_fits(const std::string& path) {
  throw UsageError(path +
                   ": this build of ladder cannot read FITS files: it was built without cfitsio. Install "
                   "it (Debian/Ubuntu: apt-get install libcfitsio-dev) and rebuild, or convert the image to "
                   ".npy (e.g. numpy.save('image.npy', astropy.io.fits.getdata('image.fits')))");
}

ArrayShape read_fits_shape(const std::string& path) {
  read_fits(path);  // throws: this build has no cfitsio
  return {};
}

#else

bool fits_supported() { return true; }

namespace {

// Closes the file however read_fits leaves.
struct FitsFile {
  fitsfile* file = nullptr;
  ~FitsFile() {
    int status = 0;
    if (file) fits_close_file(file, &status);
  }
};

void check(int status, const std::string& path, const std::string& what) {
  if (status == 0) return;
  char text[FLEN_STATUS] = {};
  fits_get_errstatus(status, text);
  throw UsageError(path + ": cannot " + what + " (cfitsio: " + text + ")");
}

// Opens the first image HDU and checks its axes: a 2-D image (further axes of length 1).
ArrayShape open_image(FitsFile& fits, const std::string& path) {
  int status = 0;
  fits_open_image(&fits.file, path.c_str(), READONLY, &status);
  check(status, path, "open it as a FITS image");
  constexpr int kMaxAxes = 9;
  int bitpix = 0, naxis = 0;
  long axes[kMaxAxes] = {};
  fits_get_img_param(fits.file, kMaxAxes, &bitpix, &naxis, axes, &status);
  check(status, path, "read its image size");
  std::string shape;
  for (int k = 0; k < std::min(naxis, kMaxAxes); ++k) shape += (k ? " × " : "") + std::to_string(axes[k]);
  bool extra_axes = naxis > kMaxAxes;
  for (int k = 2; k < std::min(naxis, kMaxAxes); ++k) extra_axes |= axes[k] != 1;
  if (naxis < 2 || extra_axes)
    throw UsageError(path + ": the FITS image has " + std::to_string(naxis) + " axes (" + shape +
                     "); a 2-D image is accepted (NAXIS1 columns × NAXIS2 rows; further axes of length 1)");
  const auto width = static_cast<std::size_t>(axes[0]), height = static_cast<std::size_t>(axes[1]);
  return {bitpix == DOUBLE_IMG ? DType::f64 : DType::f32, {height, width}};
}

}  // namespace

ArrayShape read_fits_shape(const std::string& path) {
  FitsFile fits;
  return open_image(fits, path);
}

Array read_fits(const std::string& path) {
  FitsFile fits;
  const ArrayShape header = open_image(fits, path);
  const bool wide = header.dtype == DType::f64;
  Array image(header.dtype, header.shape);
  int status = 0;
  // BLANK pixels of integer images become NaN, which validation then names.
  const auto n = static_cast<LONGLONG>(image.size());
  int any_blank = 0;
  if (wide) {
    double blank = std::numeric_limits<double>::quiet_NaN();
    fits_read_img(fits.file, TDOUBLE, 1, n, &blank, image.raw(), &any_blank, &status);
  } else {
    float blank = std::numeric_limits<float>::quiet_NaN();
    fits_read_img(fits.file, TFLOAT, 1, n, &blank, image.raw(), &any_blank, &status);
  }
  check(status, path, "read its pixels");
  return image;
}

#endif

}  // namespace ladder
