#pragma once
// "Did you mean ...?" for a misspelt command, option, exercise, rung,
// size or parameter: the refusal names the nearest accepted word.
#include <string>
#include <vector>

namespace ladder {

// Edits (insert, delete, replace, swap two neighbours) between a and b.
std::size_t edit_distance(const std::string& a, const std::string& b);

// "; did you mean 'vector_add'?" when one candidate is close enough to be
// a typo of `word` (at most a third of its letters away, at least one),
// the nearest if several; "" otherwise.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ladder
