#pragma once
// The two-pass scan shared by the serial and openmp rungs.
//
// First pass: visit the pixels in raster order. A foreground pixel takes
// the provisional label of a neighbour already visited (its scan mask: up-
// left a, up b, up-right c, left d), or a new label if it has none; when
// the mask holds two different labels, the two are recorded as equivalent
// in a union-find over the provisional labels. Second pass: replace each
// provisional label with its component's final number.
//
// The scan mask is read through a decision tree, as in SAUF (Wu, Otoo and
// Suzuki 2009): it asks about the neighbours in the order that settles the
// answer soonest, and skips every union that is already implied. For 8,
// if b is foreground it touches a, c and d, so x simply takes b's label; only
// when b is background can two labels meet at x (c with a, or c with d).
// For 4, x joins d and b, unless a is foreground too: then d and b are
// already one component, through a.
//
// Why the numbering comes out as scipy's: labels are created in raster
// order, the first pixel of a component always gets a new label (no
// neighbour of it was visited before), and a union always keeps the
// smaller root. So each component's root is the label of its first pixel,
// and numbering the roots in label order numbers the components in raster
// order of their first pixel.
#include <cstddef>
#include <cstdint>

namespace ladder::labelling {

using Label = std::int32_t;

// A pixel gets a new label only when its left neighbour is background, so
// a row creates at most ceil(W / 2) labels.
inline std::size_t max_provisional_labels(long height, long width) {
  return static_cast<std::size_t>(height) * static_cast<std::size_t>((width + 1) / 2);
}

// The root of l's set, pointing every label on the way straight at it
// (path compression: later finds take one step). parent[l] <= l always.
inline Label find_root(Label* parent, Label l) {
  Label root = l;
  while (parent[root] != root) root = parent[root];
  while (parent[l] != root) {
    const Label next = parent[l];
    parent[l] = root;
    l = next;
  }
  return root;
}

// Joins the sets of a and b under the smaller root, and returns it.
inline Label unite(Label* parent, Label a, Label b) {
  a = find_root(parent, a);
  b = find_root(parent, b);
  if (a < b) {
    parent[b] = a;
    return a;
  }
  parent[a] = b;
  return b;
}

// First pass over rows [row_begin, row_end) of the image: writes the
// provisional labels (0 for background) and records their equivalences in
// parent. New labels are next, next + 1, ...; returns the next unused one.
// Row row_begin is scanned as if the row above were background (the openmp
// rung joins its strips afterwards).
template <int Connectivity>
Label scan_rows(const std::uint8_t* image, long width, long row_begin, long row_end, Label* labels, Label* parent,
                Label next) {
  auto new_label = [&] {
    parent[next] = next;
    return next++;
  };
  {
    const std::uint8_t* row = image + row_begin * width;
    Label* out = labels + row_begin * width;
    for (long x = 0; x < width; ++x) {
      if (!row[x])
        out[x] = 0;
      else if (x > 0 && row[x - 1])
        out[x] = out[x - 1];
      else
        out[x] = new_label();
    }
  }
  for (long y = row_begin + 1; y < row_end; ++y) {
    const std::uint8_t* row = image + y * width;
    const std::uint8_t* up = row - width;
    Label* out = labels + y * width;
    const Label* out_up = out - width;
    for (long x = 0; x < width; ++x) {
      if (!row[x]) {
        out[x] = 0;
        continue;
      }
      const bool b = up[x];
      const bool d = x > 0 && row[x - 1];
      if constexpr (Connectivity == 4) {
        if (d) {
          // Join b only when a does not already link b to d.
          out[x] = b && !up[x - 1] ? unite(parent, out[x - 1], out_up[x]) : out[x - 1];
        } else {
          out[x] = b ? out_up[x] : new_label();
        }
      } else {
        if (b) {
          out[x] = out_up[x];
        } else {
          const bool a = x > 0 && up[x - 1];
          const bool c = x + 1 < width && up[x + 1];
          if (c) {
            if (a)
              out[x] = unite(parent, out_up[x + 1], out_up[x - 1]);
            else if (d)
              out[x] = unite(parent, out_up[x + 1], out[x - 1]);
            else
              out[x] = out_up[x + 1];
          } else if (a) {
            out[x] = out_up[x - 1];
          } else if (d) {
            out[x] = out[x - 1];
          } else {
            out[x] = new_label();
          }
        }
      }
    }
  }
  return next;
}

}  // namespace ladder::labelling
