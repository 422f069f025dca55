// The participant track's library has one file of its own, so that it
// exists even in a build of exercises that have no skeleton yet.
namespace ladder::exercises_track {}
