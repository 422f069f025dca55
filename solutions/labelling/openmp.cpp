// openmp: the serial rung's two passes (two_pass.hpp) on horizontal strips,
// one per thread, each with its own range of provisional labels. Then the
// strips are joined: the pixels of each strip's first row are united with
// their neighbours in the row above (one thread; a few rows of work). The
// roots are then numbered in parallel: each strip counts its roots, a
// prefix over the strips gives each its first number, and each strip
// numbers its own labels and rewrites its own rows.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "solutions/labelling/two_pass_rung.hpp"

namespace ladder {
namespace {

using labelling::Label;

class OpenMpLabelling final : public labelling::TwoPassRung<OpenMpRung> {
 public:
  using TwoPassRung::TwoPassRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    TwoPassRung::prepare(inputs, outputs);
    number_.assign(parent_.size(), 0);  // number_[l]: the final label of provisional label l
  }

  void compute() override {
    const int threads = omp_get_max_threads();
    std::vector<long> first_row(threads + 1);
    std::vector<Label> first_label(threads), end_label(threads), roots(threads);
    for (int t = 0; t <= threads; ++t) first_row[t] = height_ * t / threads;
    // A strip may create at most ceil(W / 2) labels per row: strip t's
    // labels start where the rows above it could have ended.
    const Label per_row = static_cast<Label>((width_ + 1) / 2);
    for (int t = 0; t < threads; ++t) first_label[t] = static_cast<Label>(first_row[t]) * per_row + 1;
    Label* parent = parent_.data();
    Label* number = number_.data();

#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const long rows_begin = first_row[t], rows_end = first_row[t + 1];
      const Label begin = first_label[t];
      Label end = begin;
      if (rows_begin < rows_end)
        end = connectivity_ == 4
                  ? labelling::scan_rows<4>(image_, width_, rows_begin, rows_end, labels_, parent, begin)
                  : labelling::scan_rows<8>(image_, width_, rows_begin, rows_end, labels_, parent, begin);
      end_label[t] = end;
#pragma omp barrier
#pragma omp single
      for (int s = 1; s < threads; ++s)
        if (first_row[s] > 0 && first_row[s] < first_row[s + 1]) join_to_row_above(first_row[s]);
      // (the implicit barrier of `single`: all strips joined before anyone counts roots)

      Label count = 0;
      for (Label l = begin; l < end; ++l) count += parent[l] == l;
      roots[t] = count;
#pragma omp barrier
      Label n = 0;
      for (int s = 0; s < t; ++s) n += roots[s];
      for (Label l = begin; l < end; ++l)
        if (parent[l] == l) number[l] = ++n;
#pragma omp barrier
      // A label whose parent lies in this strip takes the parent's number
      // (set just before: parent[l] < l); one whose root lies in an earlier
      // strip looks the root up (parent is only read now).
      for (Label l = begin; l < end; ++l) {
        const Label p = parent[l];
        if (p == l) continue;
        if (p >= begin) {
          number[l] = number[p];
        } else {
          Label root = p;
          while (parent[root] != root) root = parent[root];
          number[l] = number[root];
        }
      }
#pragma omp barrier
      for (long i = rows_begin * width_; i < rows_end * width_; ++i) labels_[i] = number[labels_[i]];
    }
  }

 private:
  // Unites each foreground pixel of row y with its foreground neighbours in row y - 1.
  void join_to_row_above(long y) {
    const std::uint8_t* row = image_ + y * width_;
    const std::uint8_t* up = row - width_;
    const Label* out = labels_ + y * width_;
    const Label* out_up = out - width_;
    const long reach = connectivity_ == 8 ? 1 : 0;
    for (long x = 0; x < width_; ++x) {
      if (!row[x]) continue;
      for (long nx = std::max(0L, x - reach); nx <= std::min(width_ - 1, x + reach); ++nx)
        if (up[nx]) labelling::unite(parent_.data(), out[x], out_up[nx]);
    }
  }

  std::vector<Label> number_;
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, openmp, OpenMpLabelling);
}  // namespace ladder
