#pragma once
// Rungs belong to a track: "solutions" (solutions/, the worked rungs) or
// "exercises" (exercises/, the participant's). The names, once: the
// command line, the registry, the results and the kernel lookup use these.
#include <string>

namespace ladder {

inline const std::string kSolutionsTrack = "solutions";
inline const std::string kExercisesTrack = "exercises";

}  // namespace ladder
