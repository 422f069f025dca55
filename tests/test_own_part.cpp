// Each rank's own part of an input file (receive_own_part, ladder/mpi.hpp),
// as the GPU-a-rank rungs whose data stays on each rank take it, checked on
// the CPU: run by ctest under mpirun on 2 and 3 ranks. Through
// median_filter's FramesOfRanks (7 uint16 frames of 13 × 17, 2 float32
// frames: one rank of 3 gets none) and convolution's bands of rows (a 2-D
// float32 image), each rank's part read from the .npy file is the bytes the
// scatter from rank 0 gives it, and the file's own; where a rank cannot open
// the file, every rank is sent its part; where a rank opens another file
// (another header, or other bytes), rank 0 alone throws, naming that rank.
//
//   mpirun -np N ladder_own_part_tests
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ladder/error.hpp"
#include "ladder/mpi.hpp"
#include "ladder/npy.hpp"
#include "solutions/median_filter/frames_of_ranks.hpp"

namespace ladder {
namespace {

int rank = 0, ranks = 1, failures = 0;

// Every rank's verdict on one check, so that rank 0 prints it once.
void expect_on_every_rank(bool condition, const std::string& what) {
  int all = condition ? 1 : 0;
  LADDER_MPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  if (!condition) {
    std::printf("FAILED on rank %d of %d: %s\n", rank, ranks, what.c_str());
    ++failures;
  } else if (all && rank == 0) {
    std::printf("ok: %s\n", what.c_str());
  }
}

template <class T>
Array random_array(std::vector<std::size_t> shape, unsigned seed) {
  Array array(dtype_of<T>(), std::move(shape));
  std::mt19937 random(seed);
  for (T& value : array.view<T>()) value = static_cast<T>(random() % 60000);
  return array;
}

// What rank 0 announces: the file it read, as `ladder solve` records it.
InputFile file_of(const std::string& path) {
  const NpyLayout layout = read_npy_layout(path);
  return {path, layout.data_offset, layout.array};
}

// The file as a follower finds it at rank 0's path: rank 0's description
// with the path of `seen`, as where each machine has its own copy.
std::optional<InputFile> as_seen(const InputFile& announced, const std::string& seen) {
  InputFile file = announced;
  if (rank != 0) file.path = seen;
  return file;
}

// Rank 0's refusal: thrown there (with words the message must hold), not on the others.
void expect_refusal(const std::function<void()>& receive, const std::vector<std::string>& words,
                    const std::string& what) {
  std::string message;
  try {
    receive();
  } catch (const UsageError& error) {
    message = error.what();
  }
  if (rank != 0) return expect_on_every_rank(message.empty(), what + ": only rank 0 says it");
  bool holds = !message.empty();
  for (const std::string& word : words) holds = holds && message.find(word) != std::string::npos;
  expect_on_every_rank(holds, what + " (\"" + message + "\")");
}

// A stack's frames through FramesOfRanks, each way.
void check_frames(const std::string& folder, const Array& stack, const std::string& stem, const std::string& name) {
  const std::string path = folder + "/" + stem + ".npy";
  if (rank == 0) write_npy(path, stack);
  LADDER_MPI(MPI_Barrier(MPI_COMM_WORLD));
  Arrays inputs, outputs;  // the harness's, on rank 0
  if (rank == 0) inputs["image"] = read_npy(path), outputs["output"] = Array(stack.dtype(), stack.shape());
  const median_filter::FramesOfRanks frames(rank == 0 ? &inputs : nullptr, rank == 0 ? &outputs : nullptr, rank,
                                            ranks, MPI_COMM_WORLD);
  const InputFile announced = file_of(path);
  // The bytes each rank should hold: its frames of the file, read whole.
  const Array whole = read_npy(path);
  const std::size_t first = static_cast<std::size_t>(frames.parts.offsets[rank]) * frames.frame_bytes;
  const std::vector<std::byte> expected(whole.raw() + first, whole.raw() + first + frames.my_bytes());

  std::vector<std::byte> read(frames.my_bytes()), sent(frames.my_bytes());
  const bool from_file = frames.receive_own_frames(read.data(), announced);
  expect_on_every_rank(from_file, name + ": every rank reads its frames from the file");
  expect_on_every_rank(read == expected, name + ": each rank's frames from the file are its frames of the stack (" +
                                             std::to_string(frames.mine().frames) + " on rank " +
                                             std::to_string(rank) + ")");
  const bool scattered = !frames.receive_own_frames(sent.data(), std::nullopt);
  expect_on_every_rank(scattered && sent == read, name + ": without a file, rank 0 sends the same bytes");

  std::vector<std::byte> fallback(frames.my_bytes());
  const bool fell_back = !frames.receive_own_frames(fallback.data(), as_seen(announced, folder + "/missing.npy"));
  expect_on_every_rank(fell_back && fallback == expected,
                       name + ": where a rank cannot open the file, rank 0 sends every rank its frames");

  // Another file at rank 0's path: one more frame (another header), or the same header and other values.
  std::vector<std::size_t> taller = stack.shape();
  taller[0] += 1;
  const std::string longer = folder + "/" + stem + "-longer.npy", other = folder + "/" + stem + "-other.npy";
  if (rank == 0) {
    Array more(stack.dtype(), taller);
    write_npy(longer, more);
    Array changed = stack;
    for (std::size_t b = 0; b < changed.bytes(); ++b) changed.raw()[b] ^= std::byte{1};
    write_npy(other, changed);
  }
  LADDER_MPI(MPI_Barrier(MPI_COMM_WORLD));
  std::vector<std::byte> refused(frames.my_bytes());
  std::string shape = std::to_string(taller[0]);
  for (std::size_t d = 1; d < taller.size(); ++d) shape += ", " + std::to_string(taller[d]);
  expect_refusal([&] { frames.receive_own_frames(refused.data(), as_seen(announced, longer)); },
                 {"rank 1 of " + std::to_string(ranks) + " opens " + path, "(" + shape + ")", "same file"},
                 name + ": a rank that reads another header there stops the job from rank 0, named");
  // The first rank with frames to read: on 3 ranks of 2 frames, rank 1.
  expect_refusal([&] { frames.receive_own_frames(refused.data(), as_seen(announced, other)); },
                 {"rank 1 of " + std::to_string(ranks) + " opens " + path, "other bytes", "same file"},
                 name + ": a rank that reads other bytes under the same header stops the job from rank 0, named");
}

// Convolution's bands of rows of a 2-D float32 image, as BandsOnGpus splits them.
void check_rows(const std::string& folder) {
  const std::string path = folder + "/image.npy";
  const Array image = random_array<float>({11, 9}, 3);
  if (rank == 0) write_npy(path, image);
  LADDER_MPI(MPI_Barrier(MPI_COMM_WORLD));
  const long long height = 11, width = 9;
  Parts parts;
  for (int r = 0; r < ranks; ++r) {
    const Part band = part_of(height, r, ranks);
    parts.counts.push_back(static_cast<int>(band.size() * width));
    parts.offsets.push_back(static_cast<int>(band.begin * width));
  }
  const float* whole = image.view<float>().data();
  std::vector<float> read(static_cast<std::size_t>(parts.counts[rank])), sent(read.size());
  const bool from_file = receive_own_part(file_of(path), rank == 0 ? whole : nullptr, parts, MPI_FLOAT, read.data(),
                                          MPI_COMM_WORLD);
  receive_own_part(std::nullopt, rank == 0 ? whole : nullptr, parts, MPI_FLOAT, sent.data(), MPI_COMM_WORLD);
  const std::vector<float> expected(whole + parts.offsets[rank], whole + parts.offsets[rank] + parts.counts[rank]);
  expect_on_every_rank(from_file && read == expected && sent == expected,
                       "image of 11 x 9: each rank's band of rows from the file is the scatter's and the image's");
}

}  // namespace
}  // namespace ladder

int main(int argc, char** argv) {
  using namespace ladder;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // A scratch folder of rank 0's, removed at the end.
  char made[] = "/tmp/ladder-own-part-XXXXXX";
  if (rank == 0 && ::mkdtemp(made) == nullptr) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Bcast(made, sizeof made, MPI_CHAR, 0, MPI_COMM_WORLD);
  const std::string folder = made;
  try {
    check_frames(folder, random_array<std::uint16_t>({7, 13, 17}, 1), "uint16", "uint16 stack of 7 x 13 x 17");
    check_frames(folder, random_array<float>({2, 13, 17}, 2), "float32", "float32 stack of 2 x 13 x 17");
    check_rows(folder);
  } catch (const std::exception& error) {
    std::printf("FAILED on rank %d of %d: %s\n", rank, ranks, error.what());
    std::fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    std::filesystem::remove_all(folder);
    std::printf("%s on %d ranks\n", failures == 0 ? "all passed" : "FAILED", ranks);
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
