#pragma once
// FITS images for `ladder solve`: what radio astronomers' images come in.
// Read through cfitsio where the build found it (Debian: libcfitsio-dev);
// without it, a FITS input gets one error that names the package.
#include <string>

#include "ladder/array.hpp"

namespace ladder {

// Does the path name a FITS file (.fits, .fit, .fts, optionally .gz, before
// any cfitsio [extension] suffix)?
bool is_fits_path(const std::string& path);

// Was this build linked with cfitsio?
bool fits_supported();

// The first image HDU with data, as a 2-D array of shape (NAXIS2, NAXIS1)
// (rows in file order, as astropy.io.fits.getdata gives them); axes beyond
// the second must have length 1 (radio images carry FREQ and STOKES axes).
// BITPIX -64 gives float64, every other BITPIX float32 (BSCALE and BZERO
// applied; BLANK pixels become NaN). UsageError naming the file otherwise.
Array read_fits(const std::string& path);

// The dtype and shape read_fits would give, from the header alone.
ArrayShape read_fits_shape(const std::string& path);

}  // namespace ladder
