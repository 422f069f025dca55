#pragma once
// The harness: runs every rung of an exercise the same way. It checks the
// output against the reference before timings count, then times compute
// alone and upload + compute + download with Google Benchmark driving the
// repetitions, and turns the samples into statistics, speed-ups and the
// fraction of the device's measured ceiling.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ladder/problem.hpp"
#include "ladder/backends.hpp"
#include "ladder/track.hpp"

namespace ladder {

// Seconds a CUDA rung's copies need at the link's measured pinned rates:
// the slower direction alone (the link is full duplex), and at least both
// directions' bytes at the rate measured for both at once, where it was.
// 0 when the link was not measured.
double transfer_bound(const DeviceCeilings& device, const Work& work);

struct Statistics {
  double median = 0, min = 0, max = 0, mean = 0, cv = 0;  // seconds; cv = stddev / mean
  // How well the samples pin the median down: the half-width of its 95 %
  // interval, over the median. The interval runs between the order
  // statistics n/2 -+ 0.98 sqrt(n) (the binomial's normal approximation),
  // so it holds for any distribution of the samples.
  double median_interval = 0;
  std::vector<double> samples;
};
Statistics summarise(std::vector<double> samples);
// A figure's statistics as the results JSON holds them (median_s, min_s,
// max_s, mean_s, cv, median_interval, repetitions, samples_s).
nlohmann::json statistics_json(const Statistics& statistics);
std::string format_time(double seconds);  // "1.23 ms"

// How many repetitions a figure gets. The first batch is enough for
// min_time as a pilot repetition predicts (min_time over the pilot's
// seconds), at least min_repetitions; then, as nvbench does, repetitions go
// on while the median is not yet pinned down to noise_target (see
// Statistics::median_interval): more batches of the same size, up to
// kMaxBatches of them, max_repetitions, or the figure's share of the time
// budget, whichever comes first.
struct TimingPolicy {
  double min_time = 0.2;      // seconds of timed work per figure, at least
  int min_repetitions = 5;
  int max_repetitions = 1000;
  double noise_target = 0.01;  // stop once the median's 95 % interval is within +-1 %
  static constexpr int kMaxBatches = 4;
  // Seconds one rung may take in all: a rung predicted to need more for one
  // compute is skipped; a slow one gets fewer repetitions (at least 3).
  double time_budget = 60;
  // A progress line once the run has printed nothing for this many seconds.
  double progress_every = 10;
  // A CPU rung whose copies cost under 1 % of its compute gets a derived
  // transfer figure (time_rung()); false times its round trips (--round-trips).
  bool derive_cheap_transfers = true;
};

// Times one figure: `sample` runs one repetition and returns its seconds.
// Google Benchmark runs the repetitions, a batch at a time, under the
// policy above; `gb_runs` collects its records of each batch. The pilot
// repetition runs first and is no sample (it may be a cold start); the
// result is summarise() of the kept samples, in the order they were taken. Where the
// run has printed nothing for policy.progress_every seconds, a progress
// line goes to `progress`.
Statistics measure(const std::string& name, const TimingPolicy& policy, const std::function<double()>& sample,
                   nlohmann::json& gb_runs, std::ostream* progress = nullptr);

// Host memory bandwidth as STREAM measures it: every thread, first touch,
// three arrays of `array_bytes` (by default far larger than the caches), the
// best of 9 timed passes of each of copy, add and triad (and on x86 add with
// non-temporal stores), bytes read + written, and the best kernel's figure.
struct HostBandwidth {
  double bytes_per_s = 0;
  std::string kernel;                      // the kernel that reached it
  std::map<std::string, double> kernels;   // each kernel's best, bytes per second
  double best_over_median = 1;             // how far the best pass stands above a typical one
};
constexpr std::size_t kHostProbeArrayBytes = std::size_t{128} << 20;
HostBandwidth measure_host_bandwidth(std::size_t array_bytes = kHostProbeArrayBytes);

// How well the host itself scales from one thread to all of them, the
// ceiling on an OpenMP rung's parallel efficiency. The same work is timed on
// one thread and then on every thread at once, each thread its own copy:
// a chain of dependent multiply-adds (the probe's: it sees the clock, and
// nothing a second hardware thread on the core would take), vector work
// (multiply-adds over 4 KiB in the L1 cache: it sees the clock and the
// vector units a core's hardware threads share) and
// memory-bound work (summing a 128 MiB array, split between the threads).
// A core slows down when its neighbours run (a lower all-core clock, a
// hyperthread sibling, a hypervisor's share), and memory does not get faster
// with threads past a point: no rung scales better than its machine. Each
// figure is the best of five timings, as a ceiling should be. One thread
// of a server CPU rarely gets its share of the memory bandwidth (too few
// reads in flight), so the memory speed-up can exceed the thread count.
struct HostScaling {
  int threads = 0;
  double clock_efficiency = 0;    // the same for a chain of dependent multiply-adds: the clock alone
  double compute_efficiency = 0;  // one thread's time over the all-thread time, each thread doing the same work
  double memory_speedup = 0;      // all threads' bytes per second over one thread's
};
HostScaling measure_host_scaling();

// The host's FP32 rate, operations per second (a multiply-add counts 2),
// as the GPU's is measured: every thread multiply-adds 256 independent
// floats held in registers (enough in flight for two FMA units), the best
// of many short timings after a warm-up. It is compiled for the widest
// vector unit the CPU has (LADDER_WIDEST_VECTORS: AVX-512, AVX2 with FMA
// or SSE2 on x86-64, chosen when the program starts, as convolution's
// serial row is): the machine's peak, not the baseline the build targets.
double measure_host_fp32_rate();

// The threads the next OpenMP parallel region gets; 1 in a build without OpenMP.
int openmp_threads();

// The machine probe: a fixed piece of one-thread work timed before each
// replicate and after the last, so that a run records how fast its machine
// ran, and when. A host-timed row that differs between two runs by as much
// as their probes differ is the machine's difference, not the code's
// (ladder compare says so). A shared virtual machine's host rows move with
// its neighbours; the probe moves with them.
struct MachineProbe {
  double scalar_s = 0;  // 2^22 dependent 64-bit multiply-adds: the core's clock, and what the hypervisor takes
  double memory_s = 0;  // one thread summing 64 MiB: the memory system as one thread sees it
};
MachineProbe probe_machine();

// CPU time since boot over all cores, in ticks (/proc/stat): "steal" is time
// the hypervisor gave this virtual machine's CPUs to another; -1 where not readable.
struct CpuTicks {
  double steal = -1, total = -1;
};
CpuTicks read_cpu_ticks();

// Measured (or given) ceilings of this run's devices, bytes per second.
struct Ceilings {
  double host_bytes_per_s = 0;
  int host_threads = 0;
  HostBandwidth host_measurement;  // empty when the ceiling was given (--host-bandwidth)
  // The same probe on the working set of a CPU row smaller than its three
  // arrays: working-set bytes (Work::bytes) -> bytes per second. A rung timed
  // back to back finds part of a working set that small still in the
  // caches, and so does the probe. Filled before each exercise's rungs (Harness).
  std::map<double, double> host_bytes_per_s_at;
  HostScaling host_scaling;        // measured with the host bandwidth
  double host_fp32_operations_per_s = 0;  // measured with the host bandwidth (0 where it was given)
  std::optional<DeviceCeilings> cuda;
  std::optional<DeviceCeilings> opencl;
  // In a job of several ranks: the time of an exchange, an allreduce and a
  // reduce against message size, per backend (measure_communication); else null.
  nlohmann::json communication;
};

// Runs one rung once, untimed: prepare, upload, compute, download. The
// outputs are the rung's; `solve`, `check` and the tests use this. Throws
// OutOfBounds where a compute wrote past the end of an output. compute()
// runs twice (each run must give the whole answer afresh), once where
// `computes` is 1 (`check --race`, on a simulator thousands of times slower).
Arrays run_once(const RungEntry& entry, const Arrays& inputs, const Params& params, const RunOptions& options,
                const Problem& problem, int computes = 2);

// One check case as `ladder check` and the tests run it: the inputs
// generate() makes with `seed`, run_once(), and the outputs against the
// reference. A write past the end of an output (OutOfBounds) or a device's
// error fails the case, its message the detail; NotImplemented is thrown on.
CheckResult check_case(const RungEntry& entry, const Problem& problem, const Params& params, std::uint64_t seed,
                       const RunOptions& options, int computes = 2);

// OutOfBounds naming the first output whose guard zone a write reached
// (Array::guard_overrun), how far past its end and what `step` did it.
void check_guard_zones(const Arrays& outputs, const std::string& step);

struct RunRequest {
  std::string exercise;
  std::string size = "workshop";
  Params overrides;
  std::vector<std::string> variants;  // empty: every rung of the exercise
  std::uint64_t seed = 1;
  int threads = 0;  // OpenMP threads for this request; 0 = as the run was started
  std::string track = kSolutionsTrack;  // or kExercisesTrack: the participant's rungs
  bool seed_drawn = false;  // drawn at run time (a hand-in's): recorded, not printed before the rows
};

// A seed no one knows before it is drawn (std::random_device), below 2^62.
std::uint64_t drawn_seed();

// The problem's ladder: its rungs() in their order (the ladder a reader
// climbs), then any rung registered for it that rungs() does not name, so
// that a rung is listed, checked, timed and tested by being registered.
std::vector<std::string> ladder_rungs(const Problem& problem);

// The rungs a command runs: `requested`, or the problem's whole ladder where
// it is empty. UsageError naming the first requested rung that is not on
// the ladder, the nearest accepted name and every accepted one.
std::vector<std::string> chosen_rungs(const Problem& problem, const std::vector<std::string>& requested);

// One rung's outcome in a run, as run_rung() finds it step by step;
// to_json() writes it as the rung's row of the results JSON
// (reports/results.schema.json).
enum class RungStatus { ok, failed, skipped, not_implemented };

// Where the rung ran: known once its prepare() has returned.
struct RungPlacement {
  std::string device;
  DeviceKind device_kind = DeviceKind::cpu;
  bool pinned = false;  // host memory page-locked for the rung's copies
  // compute() timed by the host's clock, not by the device's events; and
  // Rung::host_work_in_compute(), empty where the events time the device alone.
  bool host_clock = false;
  std::string host_work_in_compute;
};

// The rung's figures over the ceiling of the device it ran on; a fraction
// is empty where there is no ceiling (or transfer bound) to divide by.
struct CeilingFraction {
  std::string ceiling;  // "host memory bandwidth", "device copy bandwidth" or "device FP32 rate"
  double ceiling_bytes_per_s = 0;       // the bandwidth ceiling (0 where the ceiling is the FP32 rate)
  double working_set_bytes = 0;         // > 0: the host ceiling was measured at this working set
  double ceiling_operations_per_s = 0;  // the FP32 rate, where that is the ceiling
  std::optional<double> compute, transfer;
  double transfer_bound_s = 0;  // seconds the copies need at the link's measured rate (CUDA rungs)
};

// What a derived transfer figure's "derived" says in the results.
inline constexpr const char* kDerivedTransfer =
    "compute + upload + download, timed apart: a CPU rung whose copies are under 1 % of its compute";
struct RungTimings {
  Statistics compute, transfer, upload, download;
  // transfer is compute + upload + download timed apart, not round trips
  // (time_rung(): a CPU rung whose copies are under 1 % of its compute).
  bool transfer_derived = false;
  nlohmann::json google_benchmark = nlohmann::json::array();  // its record of each batch (measure())
  double bytes_per_s = 0, operations_per_s = 0;               // throughput, from the compute median
  CeilingFraction fraction_of_ceiling;
};

// The rung's figures over the ceiling of the device it ran on: the host's
// memory bandwidth for a CPU row (the higher of the probe's and, where it
// was measured, the probe's at the row's own working set); a GPU's copy
// bandwidth; or, for a problem
// whose work is all FP32 multiply-adds (Work::fp32_bound), the host's or
// the GPU's FP32 rate where it was measured. A CUDA row's transfer-inclusive figure is over
// its copies' bound at the link's measured rate (transfer_bound). A rung
// on several GPUs (`devices`, Rung::device_count) is over their ceilings
// added up, each with its own link.
CeilingFraction fraction_of_ceiling(const Ceilings& ceilings, Backend backend, DeviceKind kind, const Work& work,
                                    const RungTimings& timings, int devices = 1);

struct RungResult {
  std::string rung;
  Backend backend = Backend::host;
  RungStatus status = RungStatus::ok;
  std::string reason;                      // why the status is not ok
  std::optional<RungPlacement> placement;  // once prepared
  std::optional<CheckResult> check;        // the first check, once a full run has finished
  std::optional<RungTimings> timings;      // only when ok
  std::optional<std::vector<Message>> communication;  // a distributed rung's, once timed
  std::optional<nlohmann::json> language;  // a Python rung's (Rung::language), once timed
};
nlohmann::json to_json(const RungResult& result);

class Harness {
 public:
  Harness(RunOptions options, TimingPolicy policy, Ceilings ceilings, std::ostream& progress);

  // One exercise at one size: the results JSON's entry for it. Sets
  // `any_failed` when a rung failed its check or threw.
  nlohmann::json run(const RunRequest& request, bool& any_failed);

 private:
  RungResult run_rung(const Problem& problem, const std::string& rung_name, Arrays& inputs,
                      const Arrays& expected, const Params& params, const Work& work, const std::string& track);
  // The fresh-input check's case (RunOptions::fresh_inputs): inputs of a
  // drawn seed and their reference, and the run's own inputs to put back.
  struct FreshInputs {
    std::uint64_t seed = 0;
    Arrays inputs, expected, original;
  };
  std::optional<std::string> fails_on_fresh_inputs(Rung& rung, const Problem& problem, Arrays& inputs,
                                                   Arrays& outputs) const;
  std::optional<FreshInputs> fresh_;
  // Measures the host probe at an exercise's working set, once per size,
  // where the host ceiling was measured and the working set is smaller than
  // the probe's three arrays (but not so small that the probe times its
  // threads' start-up).
  void measure_host_ceiling_at(const Work& work);
  RunOptions options_;
  TimingPolicy policy_;
  Ceilings ceilings_;
  std::ostream& progress_;
};

// Speed-ups of every ok row against the naive and serial rows among `rows`
// (an entry's "rungs"), compute-only and transfer-inclusive, from medians.
void add_speedups(nlohmann::json& rows);

// Replicates: the same request run several times, interleaved with the
// other requests of the run, so that the spread between them shows what a
// rerun on this machine would see. One entry from several passes: samples
// pooled, each figure's replicate medians kept, and their spread (max - min
// over median); a row whose spread exceeds kHighSpread is flagged.
constexpr double kHighSpread = 0.10;
double replicate_spread(const std::vector<double>& medians);
nlohmann::json merge_replicates(const std::vector<nlohmann::json>& passes);

// The run's context: suite version, host, compiler, runtimes, devices.
struct HostLoad {
  double one_minute = -1, five_minutes = -1, fifteen_minutes = -1;  // -1: not readable
};
HostLoad read_host_load();  // /proc/loadavg

// What the machine was doing during the run, read rather than configured.
struct RunReadings {
  HostLoad load_before, load_after;
  std::vector<MachineProbe> probes;  // before each replicate, and after the last
  CpuTicks ticks_before, ticks_after;
};

// The results' context: the suite, the machine, how the run was timed
// (`policy`, so that what is added to the file later, the peers, can be
// timed the same way) and what the machine was doing.
nlohmann::json run_context(const RunOptions& options, const TimingPolicy& policy, const Ceilings& ceilings,
                           const std::string& command_line, const RunReadings& readings);

constexpr int kSchemaVersion = 1;

}  // namespace ladder
