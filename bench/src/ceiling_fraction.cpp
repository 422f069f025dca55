// How close a rung came to its machine: which measured ceiling judges it
// (memory bandwidth, FP32 rate, the PCIe link) and its figures over that
// ceiling. A file of its own: the roofline's rules, apart from the timing.
#include <algorithm>

#include "ladder/harness.hpp"

namespace ladder {

double transfer_bound(const DeviceCeilings& device, const Work& work) {
  // The pinned rates, whatever memory the rung copies from: they are what
  // the PCIe link can do. Pageable copies go through the driver's staging
  // buffers at a rate that varies with the host (7.0 and 9.1 GB/s host to
  // device on two H100 machines of one kind), so a rung could beat a
  // "ceiling" measured on them; against the link, a pageable rung shows
  // how much of the link its copies leave unused. The link is full
  // duplex, so the bound is the slower direction alone: a rung that
  // overlaps its uploads and downloads on streams can approach it, one
  // that copies in, computes, then copies out cannot. Where the probe
  // measured both directions at once, the bound is also at least the bytes
  // of both at that rate: full duplex only as far as the host feeds it.
  const double up = device.host_to_device_pinned, down = device.device_to_host_pinned;
  if (up <= 0 || down <= 0) return 0;
  const double one_way = std::max(work.bytes_in / up, work.bytes_out / down);
  const double both = device.both_directions_pinned;
  return both > 0 ? std::max(one_way, (work.bytes_in + work.bytes_out) / both) : one_way;
}

// First which ceiling (an all-FP32 problem moves few bytes per operation:
// its bandwidth fraction would say nothing; the host's FP32 rate or the
// GPU's where measured), then the work over the time over that ceiling.
CeilingFraction fraction_of_ceiling(const Ceilings& ceilings, Backend backend, DeviceKind kind, const Work& work,
                                    const RungTimings& timings, int devices) {
  CeilingFraction fraction;
  // An openmp_target rung on a GPU runs on the NVIDIA GPU that CUDA measured
  // (nvptx64 code), and so does a Python rung on a GPU (CuPy, numba.cuda).
  const bool cuda_gpu = backend == Backend::cuda || backend == Backend::openmp_target ||
                        (backend == Backend::python && kind == DeviceKind::gpu);
  const auto& device = cuda_gpu ? ceilings.cuda : ceilings.opencl;
  // A rung's own operations (Work::rung_operations) bound it only where they
  // take longer than its bytes: the roofline.
  auto bytes_bound = [&work](double bytes_per_s, double operations_per_s) {
    return work.rung_operations && bytes_per_s > 0 && work.bytes / bytes_per_s > work.operations / operations_per_s;
  };
  if (kind == DeviceKind::cpu && work.fp32_bound && ceilings.host_fp32_operations_per_s > 0 &&
      !bytes_bound(ceilings.host_bytes_per_s, ceilings.host_fp32_operations_per_s)) {
    fraction.ceiling = "host FP32 rate";
    fraction.ceiling_operations_per_s = ceilings.host_fp32_operations_per_s;
  } else if (kind == DeviceKind::cpu) {
    fraction.ceiling = "host memory bandwidth";
    fraction.ceiling_bytes_per_s = ceilings.host_bytes_per_s;
    if (auto at = ceilings.host_bytes_per_s_at.find(work.bytes);
        at != ceilings.host_bytes_per_s_at.end() && at->second > fraction.ceiling_bytes_per_s) {
      fraction.ceiling_bytes_per_s = at->second;
      fraction.working_set_bytes = work.bytes;
    }
  } else if (device && work.fp32_bound && device->fp32_operations_per_s > 0 &&
             !bytes_bound(device->copy_bytes_per_s, device->fp32_operations_per_s)) {
    fraction.ceiling = "device FP32 rate";
    fraction.ceiling_operations_per_s = device->fp32_operations_per_s;
  } else {
    fraction.ceiling = "device copy bandwidth";
    fraction.ceiling_bytes_per_s = device ? device->copy_bytes_per_s : 0;
  }
  if (kind == DeviceKind::gpu && device && cuda_gpu)
    fraction.transfer_bound_s = transfer_bound(*device, work);
  // A rung on several GPUs (one an MPI rank) has their ceilings added up, and a link each.
  if (kind == DeviceKind::gpu && devices > 1) {
    fraction.ceiling_bytes_per_s *= devices;
    fraction.ceiling_operations_per_s *= devices;
    fraction.transfer_bound_s /= devices;
  }

  if (fraction.ceiling_operations_per_s > 0)
    fraction.compute = work.operations / timings.compute.median / fraction.ceiling_operations_per_s;
  else if (fraction.ceiling_bytes_per_s > 0)
    fraction.compute = work.bytes / timings.compute.median / fraction.ceiling_bytes_per_s;
  if (kind == DeviceKind::cpu)
    fraction.transfer = fraction.compute;
  else if (fraction.transfer_bound_s > 0)
    fraction.transfer = fraction.transfer_bound_s / timings.transfer.median;
  return fraction;
}

}  // namespace ladder
