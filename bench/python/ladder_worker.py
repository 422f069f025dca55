"""The worker a Python rung runs in: ladder starts one per rung and drives
it through the four steps of a C++ rung (docs/python-rungs.md).

ladder writes one JSON command a line on this process's stdin and reads one
JSON reply a line on its stdout; the rung's own printing goes to stderr, so
that it cannot break the protocol. Inputs and outputs are files in shared
memory that ladder made, mapped here as NumPy arrays: the same bytes the C++
rungs read, never copied through the pipe. The worker times compute() itself,
with the clock of the rung's device (the host's steady clock, or CUDA events
on the rung's stream), because a round trip through the pipe would be inside
any clock of ladder's; everything else is the harness's own: repetitions,
reference, tolerance, check cases.
"""
import importlib.util
import json
import os
import sys
import time
import traceback

import numpy as np

# Numba's compiled functions (the rungs' @njit(cache=True)) are kept in a
# folder of their own, not beside the participant's file, one entry per
# source file, recompiled when the file changes: the JIT is paid once, not
# in every worker. NUMBA_CACHE_DIR, Numba's own variable, names another.
# Set before the rung's file imports Numba, which reads it then.
os.environ.setdefault("NUMBA_CACHE_DIR", os.path.expanduser("~/.cache/hpc-ladder/numba"))

# The protocol's channel is the real stdout; everything the rung prints,
# from Python or from compiled code, goes to stderr.
replies = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr


class NotImplementedStep(Exception):
    """The participant's skeleton: a step whose core is still to write."""


def reply(**fields):
    replies.write(json.dumps(fields) + "\n")


def where_it_failed(error, rung_file):
    """The innermost line of the rung's own file in the traceback (the
    participant's mistake), else the innermost line of all."""
    frames = traceback.extract_tb(error.__traceback__)
    own = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(rung_file)]
    frame = (own or frames or [None])[-1]
    if frame is None:
        return ""
    path = os.path.relpath(frame.filename)  # what a person types to open it, where it lies below here
    if path.startswith(".."):
        path = frame.filename
    return f" at {path}:{frame.lineno} in {frame.name}"


def describe(error, rung_file):
    text = f"{type(error).__name__}: {error}".strip()
    return text + where_it_failed(error, rung_file)


class HostClock:
    """compute() on the host: a steady clock around the call. An OpenCL
    rung's compute() returns the events of the commands it queued, on a
    queue with profiling on: the time is theirs, from the start of the first
    to the end of the last, as the C++ opencl rungs are timed."""

    def __init__(self, rung):
        self.rung = rung

    def time(self, step):
        start = time.perf_counter()
        events = step()
        self.rung_synchronize()
        seconds = time.perf_counter() - start
        if events is not None and not isinstance(events, (list, tuple)):
            events = [events]
        if events and all(hasattr(event, "profile") for event in events):
            return (events[-1].profile.end - events[0].profile.start) * 1e-9
        return seconds

    def rung_synchronize(self):
        # An OpenCL rung's commands are asynchronous: its queue finishes
        # inside the clock.
        queue = getattr(self.rung, "queue", None)
        if queue is not None:
            queue.finish()

    def synchronize(self):
        self.rung_synchronize()

    def evict(self):
        pass


# Reads a buffer larger than the L2 cache, as the C++ cuda rungs' eviction
# does: what the rung reads next comes from memory, not from the cache. It
# writes only if a word holds a value the buffer never holds.
SCRUB_KERNEL = r"""
extern "C" __global__ void read_scrub(const unsigned* words, unsigned long long n, unsigned* flag) {
  unsigned seen = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    seen |= words[i];
  if (seen == 0xFFFFFFFFu) *flag = seen;
}
"""


class CupyClock:
    """compute() on a GPU through CuPy: CUDA events on the current stream,
    as the C++ cuda rungs are timed; the L2 cache read out before each timed
    repetition (the harness's eviction). As the C++ rungs' eviction is, it
    is queued just before the start event, not at the evict step: while it
    runs, CuPy's launch (Python, a few to tens of microseconds) reaches the
    GPU, and the kernel follows the start event at once. Queued at the evict
    step, it could end before a slow host's launch came, and the window then
    held the launch too. A round trip waits for it first (synchronize)."""

    eviction_due = False

    def __init__(self, rung):
        import cupy

        self.cupy = cupy
        self.start, self.end = cupy.cuda.Event(), cupy.cuda.Event()
        l2_bytes = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["l2CacheSize"]
        self.scratch = cupy.zeros(2 * max(l2_bytes, 1 << 20) // 4, dtype=cupy.uint32)
        self.flag = cupy.zeros(1, dtype=cupy.uint32)
        self.scrub = cupy.RawKernel(SCRUB_KERNEL, "read_scrub")

    def queue_due_eviction(self):
        if self.eviction_due:
            self.scrub((1024,), (256,), (self.scratch, self.cupy.uint64(self.scratch.size), self.flag))
            self.eviction_due = False

    def time(self, step):
        stream = self.cupy.cuda.get_current_stream()
        self.queue_due_eviction()
        self.start.record(stream)
        step()
        self.end.record(stream)
        self.end.synchronize()
        return self.cupy.cuda.get_elapsed_time(self.start, self.end) / 1e3

    def synchronize(self):
        self.queue_due_eviction()
        self.cupy.cuda.get_current_stream().synchronize()

    def evict(self):
        self.eviction_due = True  # queued by the next time() or synchronize()


class NumbaCudaClock(CupyClock):
    """compute() on a GPU through numba.cuda: its events on the default stream.
    Numba's dispatch of a launch (Python, tens to hundreds of microseconds)
    runs after the start event is queued, and the GPU waits for it: the
    figure holds host work, and ladder says so in the row."""

    host_work = "Numba's dispatch of each launch, run by the host between the events"

    def __init__(self, rung):
        from numba import cuda

        self.cuda = cuda
        self.start, self.end = cuda.event(), cuda.event()
        l2_bytes = cuda.get_current_device().L2_CACHE_SIZE if hasattr(cuda.get_current_device(), "L2_CACHE_SIZE") else 64 << 20
        self.scratch = cuda.device_array(2 * max(l2_bytes, 1 << 20), dtype=np.uint8)
        self.stamp = 0

    def time(self, step):
        self.start.record()
        step()
        self.end.record()
        self.end.synchronize()
        return self.cuda.event_elapsed_time(self.start, self.end) / 1e3

    def synchronize(self):
        self.cuda.synchronize()

    def evict(self):
        self.stamp = (self.stamp + 1) % 251
        self.scratch[:] = self.stamp


def use_cuda_device(index, requires):
    """The GPU ladder chose (--cuda-device, LADDER_CUDA_DEVICE, else the
    first), made current for the library the rung computes with."""
    if "cupy" in requires:
        import cupy

        cupy.cuda.Device(index).use()
    else:
        from numba import cuda

        cuda.select_device(index)


def library_versions(names):
    versions = {"numpy": np.__version__}
    for name in names:
        module = sys.modules.get(name.split(".")[0])
        if module is not None:
            versions[name.split(".")[0]] = getattr(module, "__version__", "unknown")
    return versions


def map_arrays(specs, writable):
    """Each array's file, mapped whole (data, then the guard zone ladder
    checks), and viewed as the array's dtype and shape."""
    arrays = {}
    for spec in specs:
        whole = np.memmap(spec["path"], dtype=np.uint8, mode="r+" if writable else "r")
        size = int(np.prod(spec["shape"], dtype=np.int64)) * np.dtype(spec["dtype"]).itemsize
        arrays[spec["name"]] = whole[:size].view(spec["dtype"]).reshape(spec["shape"])
    return arrays


def main():
    rung_file = sys.argv[1]
    module = rung = clock = prepared = None
    for line in sys.stdin:
        command = json.loads(line)
        step = command["step"]
        started = time.perf_counter()
        try:
            if step == "load":
                # The rung's own folder (its siblings), then this one's (cuda_source.py).
                sys.path[:0] = [os.path.dirname(rung_file), os.path.dirname(os.path.abspath(__file__))]
                spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(rung_file))[0], rung_file)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                reply(ok=True, seconds=time.perf_counter() - started, python=sys.version.split()[0],
                      libraries=library_versions(getattr(module, "REQUIRES", ())))
            elif step == "prepare":
                device = getattr(module, "DEVICE", "cpu")
                if device == "cuda":
                    use_cuda_device(command.get("cuda_device", 0), getattr(module, "REQUIRES", ()))
                rung = module.Rung()
                inputs = map_arrays(command["inputs"], writable=False)
                outputs = map_arrays(command["outputs"], writable=True)
                context = {key: command[key] for key in ("params", "kernels", "threads", "cuda_device",
                                                           "opencl_platform_name", "opencl_device_name")
                           if key in command}
                rung.prepare(inputs, outputs, context)
                prepared = (inputs, outputs, context)
                if device == "cuda":
                    clock = CupyClock(rung) if "cupy" in sys.modules else NumbaCudaClock(rung)
                else:
                    clock = HostClock(rung)
                name = getattr(rung, "device_name", lambda: "")()
                reply(ok=True, seconds=time.perf_counter() - started, device=name,
                      libraries=library_versions(getattr(module, "REQUIRES", ())),
                      host_work=getattr(clock, "host_work", ""))
            elif step == "inputs_changed":
                # ladder rewrote the inputs (its check on fresh inputs): the
                # rung prepares again, for what it made of them (a pure Python
                # rung's lists, a kernel's constants).
                rung.prepare(*prepared)
                reply(ok=True, seconds=time.perf_counter() - started)
            elif step in ("upload", "download"):
                if hasattr(rung, step):
                    getattr(rung, step)()
                clock.synchronize()
                reply(ok=True, seconds=time.perf_counter() - started)
            elif step == "compute":
                seconds = clock.time(rung.compute)
                reply(ok=True, seconds=seconds)
            elif step == "synchronize":
                clock.synchronize()
                reply(ok=True, seconds=0)
            elif step == "evict":
                clock.evict()
                reply(ok=True, seconds=0)
            elif step == "quit":
                reply(ok=True, seconds=0)
                return
        except NotImplementedError as error:
            reply(ok=False, kind="not_implemented", text=str(error) or f"{step}() is still to write")
        except ModuleNotFoundError as error:
            reply(ok=False, kind="missing_module", module=error.name or "", text=describe(error, rung_file))
        except Exception as error:  # the participant's mistake: that rung's FAIL, with its file and line
            reply(ok=False, kind="exception", text=describe(error, rung_file))


if __name__ == "__main__":
    main()
