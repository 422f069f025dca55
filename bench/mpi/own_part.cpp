// receive_own_part (ladder/mpi.hpp): each rank's part of an input, read by
// the rank itself from the .npy file rank 0 read, or sent to it by rank 0.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "ladder/error.hpp"
#include "ladder/mpi.hpp"
#include "ladder/npy.hpp"

namespace ladder {
namespace {

// What a rank found at the path of rank 0's file, ordered so that the ranks
// agree on the worst by a maximum.
enum class Found : int { the_file = 0, no_file = 1, another_file = 2 };

// "uint16 (7, 13, 17)"
std::string describe(const ArrayShape& array) {
  std::string shape;
  for (const std::size_t n : array.shape) shape += (shape.empty() ? "" : ", ") + std::to_string(n);
  if (array.shape.size() == 1) shape += ",";
  return dtype_name(array.dtype) + " (" + shape + ")";
}

// Bytes [first, first + size) of the file's data into `mine`; where the file
// is not the one rank 0 read, `why` says how it differs.
Found read_part(const InputFile& file, std::uint64_t first, std::size_t size, std::byte* mine, std::string& why) {
  if (size == 0) return Found::the_file;  // nothing to read: the file need not even be here
  const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Found::no_file;
  struct Closed {
    int fd;
    ~Closed() { ::close(fd); }
  } closed{fd};
  try {
    const NpyLayout layout = read_npy_layout(file.path);
    if (layout.array.dtype != file.array.dtype || layout.array.shape != file.array.shape) {
      why = "reads it as " + describe(layout.array) + ", where rank 0 read " + describe(file.array);
      return Found::another_file;
    }
    if (layout.data_offset != file.data_offset) {
      why = "finds its data from byte " + std::to_string(layout.data_offset) + ", where rank 0 found it from byte " +
            std::to_string(file.data_offset);
      return Found::another_file;
    }
  } catch (const UsageError& error) {
    why = "cannot read it as rank 0 did (" + std::string(error.what()) + ")";
    return Found::another_file;
  }
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::pread(fd, mine + done, size - done, static_cast<off_t>(file.data_offset + first + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      why = n < 0 ? "cannot read its part (" + std::string(std::strerror(errno)) + ")"
                  : "finds it shorter than its header says";
      return Found::another_file;
    }
    done += static_cast<std::size_t>(n);
  }
  return Found::the_file;
}

[[noreturn]] void refuse_file(int rank, int ranks, const InputFile& file, const std::string& why) {
  throw UsageError("rank " + std::to_string(rank) + " of " + std::to_string(ranks) + " opens " + file.path + " and " +
                   why + ": each rank reads its own part of an input file, so every rank must see the same file (on "
                   "several machines, the same copy of it)");
}

}  // namespace

bool receive_own_part(const std::optional<InputFile>& file, const void* whole, const Parts& parts, MPI_Datatype item,
                      void* mine, MPI_Comm communicator) {
  int rank = 0, ranks = 1, item_bytes = 0;
  LADDER_MPI(MPI_Comm_rank(communicator, &rank));
  LADDER_MPI(MPI_Comm_size(communicator, &ranks));
  LADDER_MPI(MPI_Type_size(item, &item_bytes));
  // Rank r's part as bytes of the data: its first byte and its size.
  const auto bytes_of = [&](int r) {
    return std::pair<std::uint64_t, std::size_t>{std::uint64_t(parts.offsets[r]) * std::uint64_t(item_bytes),
                                                 std::size_t(parts.counts[r]) * std::size_t(item_bytes)};
  };
  const auto scatter = [&] {
    LADDER_MPI(MPI_Scatterv(whole, parts.counts.data(), parts.offsets.data(), item, mine, parts.counts[rank], item, 0,
                            communicator));
    return false;
  };
  if (!file) return scatter();  // the same on every rank: announced with the rung

  // Rank 0 has the whole input already (the harness read the file); the
  // others read their parts.
  const auto [first, size] = bytes_of(rank);
  auto* own = static_cast<std::byte*>(mine);
  Found found = Found::the_file;
  std::string why;
  if (rank == 0 && size > 0) std::memcpy(own, static_cast<const std::byte*>(whole) + first, size);
  if (rank != 0) found = read_part(*file, first, size, own, why);

  int worst = static_cast<int>(found);
  LADDER_MPI(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, communicator));
  // The first rank that found another file, or none: the one the job's words name.
  const auto first_rank_that_found = [&](Found what) {
    int first_rank = found == what ? rank : ranks;
    LADDER_MPI(MPI_Allreduce(MPI_IN_PLACE, &first_rank, 1, MPI_INT, MPI_MIN, communicator));
    return first_rank;
  };
  if (worst == static_cast<int>(Found::no_file)) {
    // Still correct, only not what the user asked for: said once, by rank 0.
    const int first_rank = first_rank_that_found(Found::no_file);
    if (rank == 0)
      std::cerr << "ladder: note: rank " << first_rank << " of " << ranks << " cannot open " << file->path
                << ", so rank 0 sends every rank its part of it (each rank reads its own part where every rank sees "
                   "the file at that path)\n";
    return scatter();
  }
  if (worst == static_cast<int>(Found::another_file)) {
    // The first rank that found another file tells rank 0 how, and rank 0
    // says it: one message, however many ranks found one.
    const int first_rank = first_rank_that_found(Found::another_file);
    long long length = static_cast<long long>(why.size());
    LADDER_MPI(MPI_Bcast(&length, 1, MPI_LONG_LONG, first_rank, communicator));
    why.resize(static_cast<std::size_t>(length));
    LADDER_MPI(MPI_Bcast(why.data(), static_cast<int>(length), MPI_CHAR, first_rank, communicator));
    if (rank == 0) refuse_file(first_rank, ranks, *file, why);
    return false;
  }

  // Every rank read its part. The same header may still hold other bytes (a
  // copy of the file on another machine, or a file changed since rank 0 read
  // it): rank 0 compares each part's checksum with its own bytes'.
  const std::uint64_t sum = checksum(own, size);
  std::vector<std::uint64_t> sums(rank == 0 ? static_cast<std::size_t>(ranks) : 0);
  LADDER_MPI(MPI_Gather(&sum, 1, MPI_UINT64_T, sums.data(), 1, MPI_UINT64_T, 0, communicator));
  if (rank == 0)
    for (int r = 1; r < ranks; ++r) {
      const auto [their_first, their_size] = bytes_of(r);
      if (sums[r] != checksum(static_cast<const std::byte*>(whole) + their_first, their_size))
        refuse_file(r, ranks, *file,
                    "reads other bytes than rank 0 did in its part (bytes " + std::to_string(their_first) + " to " +
                        std::to_string(their_first + their_size) + " of the data)");
    }
  return true;
}

}  // namespace ladder
