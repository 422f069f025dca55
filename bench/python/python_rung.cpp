// PythonRung: a rung written in Python, run in a worker process of its own
// (bench/python/ladder_worker.py) and driven through the four steps of a C++
// rung, one JSON line each way (docs/python-rungs.md). The inputs and
// outputs are files in shared memory that both processes map: the same bytes
// the C++ rungs read, copied in once at prepare, never through the pipe. A
// Python exception is the rung's RungError, naming the participant's file and
// line; a worker that dies or stops answering is one too, with its last words.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"  // openmp_threads()
#include "ladder/python.hpp"
#include "ladder/rung.hpp"
#ifdef LADDER_HAVE_OPENCL
#include "ladder/opencl.hpp"
#endif

extern char** environ;

namespace ladder {

std::string host_cpu_model();  // host_rung.cpp

namespace {

struct PythonRungFile {
  std::string track, exercise, rung, path;
};
std::vector<PythonRungFile>& python_rung_files() {
  static std::vector<PythonRungFile> files;
  return files;
}

// What a Python rung's file declares at its top, read without running it:
// the modules it imports beyond NumPy, and the device it computes on.
struct Declarations {
  std::vector<std::string> requires_modules;
  std::string device = "cpu";
};
Declarations read_declarations(const std::string& path) {
  std::ifstream in(path);
  Declarations declared;
  const std::regex requires_line(R"(^REQUIRES\s*=\s*[\(\[](.*)[\)\]])"), device_line(R"(^DEVICE\s*=\s*["'](\w+)["'])");
  const std::regex quoted_word(R"(["']([\w.]+)["'])");
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (std::regex_search(line, match, requires_line)) {
      const std::string list = match[1];
      for (auto word = std::sregex_iterator(list.begin(), list.end(), quoted_word); word != std::sregex_iterator(); ++word)
        declared.requires_modules.push_back((*word)[1]);
    } else if (std::regex_search(line, match, device_line)) {
      declared.device = match[1];
    }
  }
  return declared;
}

// The PyPI package of a module a rung may need, for the line that says how to install it.
std::string package_of(const std::string& module) {
  static const std::map<std::string, std::string> packages = {
      {"numba.cuda", "numba-cuda"}, {"cupy", "cupy-cuda13x"}, {"pyopencl", "pyopencl"},
      {"Cython", "cython"},         {"pyximport", "cython"},  {"numba", "numba"}};
  const auto known = packages.find(module);
  return known == packages.end() ? module : known->second;
}

// The modules of `modules` this interpreter cannot find (without importing
// them: find_spec only looks), once per set of modules.
std::vector<std::string> missing_modules(const std::vector<std::string>& modules) {
  static std::mutex lock;
  static std::map<std::vector<std::string>, std::vector<std::string>> known;
  const std::lock_guard<std::mutex> guard(lock);
  if (auto found = known.find(modules); found != known.end()) return found->second;
  std::string command = "'" + python_interpreter() +
                        "' -c 'import importlib.util, sys\n"
                        "for m in sys.argv[1:]:\n"
                        "    try:\n"
                        "        found = importlib.util.find_spec(m) is not None\n"
                        "    except ImportError:\n"
                        "        found = False\n"
                        "    print(m if not found else \"\")' numpy";
  for (const auto& module : modules) command += " " + module;
  std::vector<std::string> missing;
  if (FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r")) {
    char line[512];
    int lines = 0;
    while (std::fgets(line, sizeof line, pipe)) {
      std::string name(line);
      while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
      ++lines;
      if (!name.empty()) missing.push_back(name);
    }
    if (pclose(pipe) != 0 || lines == 0) missing = {"(the interpreter itself)"};
  }
  return known[modules] = missing;
}

constexpr const char* kInstallHint =
    "scripts/bootstrap.sh installs it into .venv; or: .venv/bin/pip install -r bench/python/requirements.txt "
    "(requirements-cuda.txt where a GPU is)";

// Seconds a step may take before the worker counts as hung: a minute, and a
// second more per 20 MB of the case's arrays; its first call (imports,
// Numba's JIT, kernel compiles) two minutes more. --hang-limit S sets every
// step's limit, the first calls' too.
double hang_limit_s = 0;
double step_limit(double array_bytes, bool first_call) {
  if (hang_limit_s > 0) return hang_limit_s;
  return 60 + array_bytes / 20e6 + (first_call ? 120 : 0);
}

// A file in shared memory (/dev/shm where there is one), mapped here; removed
// as soon as the worker has mapped it too, so nothing is left behind.
class SharedFile {
 public:
  SharedFile(const std::string& path, std::size_t data_bytes)
      : path_(path), data_bytes_(data_bytes), bytes_(data_bytes + Array::kGuardBytes) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw RungError("cannot make the shared file " + path + ": " + std::strerror(errno));
    if (::ftruncate(fd, static_cast<off_t>(bytes_)) != 0) {
      ::close(fd);
      throw RungError("cannot size the shared file " + path + " (" + std::to_string(bytes_) + " bytes): " +
                      std::strerror(errno));
    }
    void* mapped = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    if (mapped == MAP_FAILED) throw RungError("cannot map the shared file " + path + ": " + std::strerror(errno));
    data_ = static_cast<std::byte*>(mapped);
    std::memset(data_ + data_bytes_, static_cast<int>(Array::kGuardPattern), Array::kGuardBytes);
  }
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;
  ~SharedFile() {
    ::munmap(data_, bytes_);
    unlink();
  }
  void unlink() {
    if (!path_.empty()) ::unlink(path_.c_str());
    path_.clear();
  }
  std::byte* data() { return data_; }
  const std::string& path() const { return path_; }
  // How far past the data the farthest write into the guard reached, as Array::guard_overrun.
  std::size_t guard_overrun() const {
    for (std::size_t i = Array::kGuardBytes; i > 0; --i)
      if (data_[data_bytes_ + i - 1] != Array::kGuardPattern) return i;
    return 0;
  }

 private:
  std::string path_;
  std::size_t data_bytes_, bytes_;
  std::byte* data_ = nullptr;
};

std::filesystem::path shared_folder() {
  std::error_code error;
  if (std::filesystem::is_directory("/dev/shm", error) && ::access("/dev/shm", W_OK) == 0) return "/dev/shm";
  return std::filesystem::temp_directory_path();
}

nlohmann::json array_spec(const std::string& name, const Array& array, const std::string& path) {
  return {{"name", name}, {"dtype", dtype_name(array.dtype())}, {"shape", array.shape()}, {"path", path}};
}

// One worker process: its stdin our commands, its stdout our replies, its
// stderr a scratch file (the rung's own printing, and its last words).
// A worker outlives the rung that started it: `check` makes a rung afresh
// for every case, and the next one of the same file takes the live worker,
// its imports done and Numba's functions compiled (the first-call costs are
// the first rung's). One that died, hung or was asked to quit is not reused.
class PythonWorker {
 public:
  PythonWorker(const std::string& file, int threads) : file_(file) { start(threads); }
  PythonWorker(const PythonWorker&) = delete;
  PythonWorker& operator=(const PythonWorker&) = delete;
  ~PythonWorker() { stop(false); }

  bool running() const { return pid_ > 0; }
  const nlohmann::json& loaded() const { return loaded_; }
  void load() {
    loaded_ = step({{"step", "load"}}, 0);
    first_calls_["import"] = loaded_["seconds"];
  }
  // The seconds of the first call of each step this worker made: imports,
  // JIT and kernel compiles are in them.
  nlohmann::json& first_calls() { return first_calls_; }

  // Sends one command and waits for its reply, within the step's limit.
  nlohmann::json step(const nlohmann::json& command, double array_bytes) {
    const std::string name = command["step"];
    if (pid_ <= 0) throw RungError("the Python worker is not running (it ended before " + name + ")");
    if (!write_all(command.dump() + "\n")) throw gone(name);
    const bool first = steps_seen_.insert(name).second;
    const double limit = step_limit(array_bytes, first);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
    std::string reply;
    for (;;) {
      if (const auto end = pending_.find('\n'); end != std::string::npos) {
        reply = pending_.substr(0, end);
        pending_.erase(0, end + 1);
        break;
      }
      const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) {
        const std::string words = last_words();
        stop(true);
        std::ostringstream text;
        text << "hang: the Python worker's " << name << " step gave no answer within " << limit
             << " s (an endless loop? --hang-limit S waits longer)." << words;
        throw RungError(text.str());
      }
      pollfd ready{from_worker_, POLLIN, 0};
      if (::poll(&ready, 1, static_cast<int>(std::min(left, 1.0) * 1000) + 1) <= 0) continue;
      char buffer[65536];
      const ssize_t got = ::read(from_worker_, buffer, sizeof buffer);
      if (got <= 0) throw gone(name);
      pending_.append(buffer, static_cast<std::size_t>(got));
    }
    nlohmann::json answer = nlohmann::json::parse(reply, nullptr, false);
    if (answer.is_discarded()) throw RungError("the Python worker answered " + name + " with '" + reply + "'");
    if (answer.value("ok", false)) return answer;
    const std::string kind = answer.value("kind", ""), text = answer.value("text", "");
    if (kind == "not_implemented") throw NotImplemented(text);
    if (kind == "missing_module")
      throw RungError(text + ": the package " + package_of(answer.value("module", "")) + " is not installed for " +
                      python_interpreter() + " (" + kInstallHint + ")");
    throw RungError(text + " (the " + name + " step)");
  }

 private:
  void start(int threads) {
    static int serial = 0;
    stderr_path_ = (std::filesystem::temp_directory_path() /
                    ("ladder-python-" + std::to_string(::getpid()) + "-" + std::to_string(serial++) + ".txt"))
                       .string();
    int commands[2], replies[2];
    if (::pipe2(commands, O_CLOEXEC) != 0) throw RungError(std::string("cannot make a pipe: ") + std::strerror(errno));
    if (::pipe2(replies, O_CLOEXEC) != 0) {
      ::close(commands[0]), ::close(commands[1]);
      throw RungError(std::string("cannot make a pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, commands[0], 0);
    posix_spawn_file_actions_adddup2(&actions, replies[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const std::string interpreter = python_interpreter();
    std::vector<std::string> words = {interpreter, "-u", std::string(LADDER_SOURCE_DIR) + "/bench/python/ladder_worker.py",
                                      file_};
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    // The rung's threads follow --threads (Numba's, and OpenMP's in Cython);
    // no bytecode files left in the participant's folder.
    std::vector<std::string> environment;
    for (char** variable = environ; *variable; ++variable) {
      const std::string text = *variable;
      if (threads > 0 && (text.rfind("NUMBA_NUM_THREADS=", 0) == 0 || text.rfind("OMP_NUM_THREADS=", 0) == 0)) continue;
      environment.push_back(text);
    }
    if (threads > 0)
      for (const char* name : {"NUMBA_NUM_THREADS=", "OMP_NUM_THREADS="}) environment.push_back(name + std::to_string(threads));
    environment.push_back("PYTHONDONTWRITEBYTECODE=1");
    std::vector<char*> envp;
    for (auto& variable : environment) envp.push_back(variable.data());
    envp.push_back(nullptr);
    const int spawned = posix_spawnp(&pid_, interpreter.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(commands[0]);
    ::close(replies[1]);
    to_worker_ = commands[1];
    from_worker_ = replies[0];
    if (spawned != 0) {
      pid_ = -1;
      throw RungError("cannot start the Python worker (" + interpreter + "): " + std::strerror(spawned) +
                      " (LADDER_VENV names another virtual environment)");
    }
  }

  bool write_all(const std::string& text) {
    std::size_t sent = 0;
    while (sent < text.size()) {
      const ssize_t wrote = ::write(to_worker_, text.data() + sent, text.size() - sent);
      if (wrote <= 0) return false;
      sent += static_cast<std::size_t>(wrote);
    }
    return true;
  }

  // The worker ended: how (exit status or signal), in which step, its last words.
  RungError gone(const std::string& name) {
    int status = 0;
    const pid_t ended = pid_ > 0 ? ::waitpid(pid_, &status, 0) : -1;
    pid_ = -1;
    std::string how = "ended during " + name + ".";
    if (ended > 0 && WIFSIGNALED(status))
      how = "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
            ") during " + name + ": compiled code (Numba, Cython) that reads or writes outside its arrays?";
    else if (ended > 0 && WIFEXITED(status))
      how = "exited with status " + std::to_string(WEXITSTATUS(status)) + " during " + name + ".";
    const std::string words = last_words();
    stop(true);
    return RungError("the Python worker " + how + words);
  }

  std::string last_words() const {
    std::ifstream in(stderr_path_);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::string text;
    for (std::size_t i = lines.size() > 6 ? lines.size() - 6 : 0; i < lines.size(); ++i) text += "\n      " + lines[i];
    return text.empty() ? "" : " Its last words:" + text;
  }

  // Asks the worker to quit (or kills it, `at_once`), waits, closes, cleans up.
  void stop(bool at_once) {
    if (pid_ > 0) {
      if (!at_once) write_all("{\"step\": \"quit\"}\n");
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(at_once ? 0 : 5);
      int status = 0;
      while (::waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= deadline) {
          ::kill(pid_, SIGKILL);
          ::waitpid(pid_, &status, 0);
          break;
        }
        ::usleep(2000);
      }
      pid_ = -1;
    }
    for (int* fd : {&to_worker_, &from_worker_})
      if (*fd >= 0) ::close(*fd), *fd = -1;
    std::error_code ignored;
    if (!stderr_path_.empty()) std::filesystem::remove(stderr_path_, ignored);
  }

  std::string file_;
  pid_t pid_ = -1;
  int to_worker_ = -1, from_worker_ = -1;
  std::string pending_, stderr_path_;
  std::set<std::string> steps_seen_;
  nlohmann::json loaded_, first_calls_ = nlohmann::json::object();
};

// The live workers, by rung file and thread count: quit when ladder ends.
std::shared_ptr<PythonWorker> worker_for(const std::string& file, int threads) {
  static std::map<std::pair<std::string, int>, std::shared_ptr<PythonWorker>> workers;
  auto& worker = workers[{file, threads}];
  if (!worker || !worker->running()) {
    worker.reset();  // the dead one's files first
    worker = std::make_shared<PythonWorker>(file, threads);
    worker->load();
  }
  return worker;
}

class PythonRung : public Rung {
 public:
  explicit PythonRung(const RungContext& context)
      : context_(context), file_(python_rung_file(context.exercise, context.rung, context.track)),
        declared_(read_declarations(file_)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    outputs_ = &outputs;
    for (const auto& [name, array] : inputs) array_bytes_ += static_cast<double>(array.bytes());
    for (const auto& [name, array] : outputs) array_bytes_ += static_cast<double>(array.bytes());
    worker_ = worker_for(file_, context_.options.threads);
    const nlohmann::json& loaded = worker_->loaded();
    language_ = {{"language", "python"},
                 {"python", loaded.value("python", "")},
                 {"device", declared_.device},
                 {"libraries", loaded["libraries"]},
                 // The threads it was given: --threads, else the host's (Numba's and OpenMP's default).
                 {"threads", context_.options.threads > 0 ? context_.options.threads : openmp_threads()}};
    // The inputs, copied once into shared files; the outputs too (poisoned
    // by the harness: a rung that leaves an element unwritten shows it).
    nlohmann::json input_specs = nlohmann::json::array(), output_specs = nlohmann::json::array();
    for (const auto& [name, array] : inputs) {
      input_files_.push_back(share(name, array));
      input_specs.push_back(array_spec(name, array, input_files_.back()->path()));
    }
    for (auto& [name, array] : outputs) {
      output_files_[name] = share(name, array);
      output_specs.push_back(array_spec(name, array, output_files_[name]->path()));
    }
    // The track's kernels: kernels/<ex>/, or the participant's <folder>/<ex>/kernels/
    // (the folder LADDER_EXERCISES_PYTHON names, where it names one).
    const char* participant = std::getenv("LADDER_EXERCISES_PYTHON");
    const std::string exercises = participant && *participant ? participant : LADDER_EXERCISES_SOURCE_DIR;
    const std::string kernels = context_.track == kExercisesTrack
                                    ? exercises + "/" + context_.exercise + "/kernels"
                                    : std::string(LADDER_SOURCE_DIR) + "/kernels/" + context_.exercise;
    nlohmann::json command = {{"step", "prepare"},
                              {"inputs", input_specs},
                              {"outputs", output_specs},
                              {"params", context_.params.values()},
                              {"kernels", kernels},
                              {"threads", context_.options.threads}};
    if (declared_.device == "cuda") {
      // The GPU the C++ cuda rungs get: --cuda-device N, else LADDER_CUDA_DEVICE, else the first.
      int device = context_.options.cuda_device;
      if (const char* chosen = std::getenv("LADDER_CUDA_DEVICE"); device < 0 && chosen && *chosen)
        device = std::atoi(chosen);
      command["cuda_device"] = device < 0 ? 0 : device;
    }
#ifdef LADDER_HAVE_OPENCL
    // The device the C++ opencl rungs get (--opencl-device P:D, else the
    // first GPU, else the CPU): a PyOpenCL rung opens the same one.
    if (declared_.device == "opencl") {
      const OpenClDevice device = select_opencl_device(context_.options);
      auto text = [](auto get, auto object, cl_uint what) {
        char value[1024] = {};
        get(object, what, sizeof value - 1, value, nullptr);
        return std::string(value);
      };
      command["opencl_platform_name"] = text(clGetPlatformInfo, device.platform, CL_PLATFORM_NAME);
      command["opencl_device_name"] = text(clGetDeviceInfo, device.device, CL_DEVICE_NAME);
      opencl_gpu_ = device.is_gpu;
    }
#endif
    const nlohmann::json prepared = step(command);
    for (auto& file : input_files_) file->unlink();  // mapped by the worker now
    for (auto& [name, file] : output_files_) file->unlink();
    first_call("prepare", prepared);
    language_["libraries"] = prepared["libraries"];  // the modules imported by now
    device_ = prepared.value("device", "");
    host_work_ = prepared.value("host_work", "");
  }
  // The worker maps the inputs' shared files, copied at prepare(): rewritten
  // here, and the rung prepares again (a pure Python rung made lists of them).
  void inputs_changed(const Arrays& inputs) override {
    std::size_t i = 0;
    for (const auto& [name, array] : inputs) std::memcpy(input_files_.at(i++)->data(), array.raw(), array.bytes());
    step({{"step", "inputs_changed"}});
  }
  void upload() override { first_call("upload", step({{"step", "upload"}})); }
  void compute() override { first_call("compute", step({{"step", "compute"}})); }
  void download() override { first_call("download", step({{"step", "download"}})); }
  // The outputs from the shared files into ladder's arrays, where they are
  // checked: not in download(), whose time would then hold a copy that a C++
  // rung on the host never makes.
  void collect() override {
    for (auto& [name, file] : output_files_) {
      Array& output = outputs_->at(name);
      std::memcpy(output.raw(), file->data(), output.bytes());
    }
  }
  // A CPU rung's steps have finished when the worker answers; a device's
  // queue or stream is waited for in the worker.
  void synchronize() override {
    if (worker_ && declared_.device != "cpu") step({{"step", "synchronize"}});
  }
  void evict_caches() override {
    if (declared_.device == "cuda") step({{"step", "evict"}});
  }
  double timed_compute() override { return step({{"step", "compute"}})["seconds"].get<double>(); }
  // The worker's steady clock for a CPU rung; CUDA or OpenCL events otherwise.
  bool compute_timed_on_host_clock() const override { return declared_.device == "cpu"; }
  // What the worker's clock says its events hold besides the device's work (Numba's dispatch).
  std::string host_work_in_compute() const override { return host_work_; }
  void check_device_guard_zones() override {
    for (const auto& [name, file] : output_files_)
      if (const std::size_t overrun = file->guard_overrun())
        throw OutOfBounds("the Python rung wrote past the end of output '" + name + "' (" +
                          outputs_->at(name).describe() + "): up to " + std::to_string(overrun) +
                          " bytes past its end (is a loop bound <= where it should be <, or range(n + 1)?)");
  }
  std::string device_name() const override { return device_.empty() ? host_cpu_model() : device_; }
  DeviceKind device_kind() const override {
    return declared_.device == "cuda" || (declared_.device == "opencl" && opencl_gpu_) ? DeviceKind::gpu : DeviceKind::cpu;
  }
  std::optional<nlohmann::json> language() const override {
    nlohmann::json language = language_;
    language["first_call_s"] = worker_ ? worker_->first_calls() : nlohmann::json::object();
    return language;
  }

 private:
  std::unique_ptr<SharedFile> share(const std::string& name, const Array& array) {
    static int serial = 0;
    const std::string path = (shared_folder() / ("ladder-" + std::to_string(::getpid()) + "-" + std::to_string(serial++) +
                                                 "-" + context_.rung + "-" + name))
                                 .string();
    auto file = std::make_unique<SharedFile>(path, array.bytes());
    std::memcpy(file->data(), array.raw(), array.bytes());
    return file;
  }
  nlohmann::json step(const nlohmann::json& command) {
    if (!worker_) throw RungError("the Python rung " + context_.rung + " was not prepared");
    return worker_->step(command, array_bytes_);
  }
  void first_call(const char* what, const nlohmann::json& reply) {
    if (!worker_->first_calls().contains(what)) worker_->first_calls()[what] = reply["seconds"];
  }

  RungContext context_;
  std::string file_;
  Declarations declared_;
  std::shared_ptr<PythonWorker> worker_;
  Arrays* outputs_ = nullptr;
  double array_bytes_ = 0;
  std::vector<std::unique_ptr<SharedFile>> input_files_;
  std::map<std::string, std::unique_ptr<SharedFile>> output_files_;
  std::string device_;
  std::string host_work_;    // the worker clock's host_work: what its events hold besides the device's work
  bool opencl_gpu_ = false;  // a PyOpenCL rung's device is a GPU (not PoCL on the host)
  nlohmann::json language_;
};

}  // namespace

std::string python_venv() {
  if (const char* chosen = std::getenv("LADDER_VENV"); chosen && *chosen) return chosen;
  return std::string(LADDER_SOURCE_DIR) + "/.venv";
}

std::string python_interpreter() {
  const std::string venv = python_venv() + "/bin/python3";
  if (::access(venv.c_str(), X_OK) == 0) return venv;
  return "python3";
}

void set_python_hang_limit(double seconds) { hang_limit_s = seconds; }

std::size_t python_ladder_position(const std::string& rung) {
  static const std::vector<std::string> ladder = {
      "python_loops",  "python_numpy",    "python_numba",      "python_numba_parallel", "python_numba_vectorize", "python_numba_guvectorize",
      "python_cython_tuples", "python_cython", "python_cython_prange", "python_pyopencl", "python_cupy",
      "python_numba_cuda", "python_numba_cuda_vectorize", "python_numba_cuda_guvectorize"};
  const auto at = std::find(ladder.begin(), ladder.end(), rung);
  return static_cast<std::size_t>(at - ladder.begin());
}

void register_python_rung(const std::string& track, const std::string& exercise, const std::string& rung,
                          const std::string& path) {
  python_rung_files().push_back({track, exercise, rung, path});
  register_rung({track, exercise, rung, Backend::python, [exercise, rung](RungContext context) {
                   context.exercise = exercise;
                   context.rung = rung;
                   return std::unique_ptr<Rung>(new PythonRung(context));
                 }});
}

void register_python_track(const std::string& track, const std::string& folder) {
  std::string chosen = folder;
  if (const char* instead = std::getenv("LADDER_EXERCISES_PYTHON"); instead && *instead && track == kExercisesTrack)
    chosen = instead;
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& exercise : std::filesystem::directory_iterator(chosen, error)) {
    if (!exercise.is_directory(error)) continue;
    for (const auto& file : std::filesystem::directory_iterator(exercise.path(), error)) {
      const std::string name = file.path().filename().string();
      if (name.rfind("python", 0) == 0 && file.path().extension() == ".py") files.push_back(file.path());
    }
  }
  std::sort(files.begin(), files.end());  // the same order on every machine
  for (const auto& file : files)
    register_python_rung(track, file.parent_path().filename().string(), file.stem().string(),
                         std::filesystem::absolute(file).string());
}

std::string python_rung_file(const std::string& exercise, const std::string& rung, const std::string& track) {
  for (const auto& file : python_rung_files())
    if (file.track == track && file.exercise == exercise && file.rung == rung) return file.path;
  return "";
}

Availability python_availability() {
  const std::vector<std::string> missing = missing_modules({});
  if (missing.empty()) return {true, ""};
  if (missing.front().front() == '(')
    return {false, "no Python interpreter at " + python_interpreter() + " (" + kInstallHint + ")"};
  return {false, "NumPy is not installed for " + python_interpreter() + " (" + kInstallHint + ")"};
}

Availability python_rung_availability(const std::string& exercise, const std::string& rung, const std::string& track,
                                      const RunOptions& options) {
  const std::string file = python_rung_file(exercise, rung, track);
  if (file.empty()) return {false, "not built in this build"};
  if (!std::filesystem::exists(file)) return {false, "its file " + file + " is gone"};
  const Declarations declared = read_declarations(file);
  // The device first: on a machine without a GPU, that is the reason, whatever is installed.
  if (declared.device == "cuda")
    if (Availability gpu = cuda_availability(options); !gpu.available) return gpu;
  if (declared.device == "opencl")
    if (Availability device = opencl_availability(options); !device.available) return device;
  const std::vector<std::string> missing = missing_modules(declared.requires_modules);
  if (!missing.empty()) {
    std::string names, packages;
    for (const auto& module : missing) {
      names += (names.empty() ? "" : ", ") + module;
      if (packages.find(package_of(module)) == std::string::npos) packages += (packages.empty() ? "" : " ") + package_of(module);
    }
    return {false, "needs the Python module " + names + " (PyPI: " + packages + "), not installed for " +
                       python_interpreter() + ": " + kInstallHint};
  }
  return {true, ""};
}

}  // namespace ladder
