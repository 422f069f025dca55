#pragma once
// How many groups of `per` cover `count` things: the number of blocks or
// work-groups of every launch, of tiles across an image, of segments.
// round_up: count rounded up to a whole number of groups (a padded size).

namespace ladder {

template <class Count, class Per>
constexpr auto ceil_div(Count count, Per per) {
  return (count + per - 1) / per;
}

template <class Count, class Per>
constexpr auto round_up(Count count, Per per) {
  return ceil_div(count, per) * per;
}

}  // namespace ladder
