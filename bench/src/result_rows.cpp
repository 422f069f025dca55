// A rung's row of the results JSON (reports/results.schema.json), as
// to_json() writes a RungResult, and the speed-ups between an entry's rows.
// A file of its own: the results' format, apart from how they are measured.
#include <optional>
#include <string>

#include "ladder/backends.hpp"
#include "ladder/harness.hpp"

namespace ladder {
namespace {

std::string status_name(RungStatus status) {
  switch (status) {
    case RungStatus::ok:
      return "ok";
    case RungStatus::failed:
      return "failed";
    case RungStatus::skipped:
      return "skipped";
    case RungStatus::not_implemented:
      return "not_implemented";
  }
  return "unknown";
}

nlohmann::json to_json(const std::optional<double>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

nlohmann::json to_json(const RungTimings& t) {
  const CeilingFraction& fraction = t.fraction_of_ceiling;
  nlohmann::json ceiling = {{"ceiling", fraction.ceiling},
                            {"ceiling_bytes_per_s", fraction.ceiling_bytes_per_s},
                            {"compute", to_json(fraction.compute)},
                            {"transfer", to_json(fraction.transfer)},
                            {"transfer_bound_s", fraction.transfer_bound_s}};
  if (fraction.ceiling_operations_per_s > 0) ceiling["ceiling_operations_per_s"] = fraction.ceiling_operations_per_s;
  if (fraction.working_set_bytes > 0) ceiling["working_set_bytes"] = fraction.working_set_bytes;
  nlohmann::json transfer = statistics_json(t.transfer);
  if (t.transfer_derived) transfer["derived"] = kDerivedTransfer;
  return {{"compute", statistics_json(t.compute)},
          {"transfer", transfer},
          {"upload", statistics_json(t.upload)},
          {"download", statistics_json(t.download)},
          {"google_benchmark", t.google_benchmark},
          {"throughput", {{"bytes_per_s", t.bytes_per_s}, {"operations_per_s", t.operations_per_s}}},
          {"fraction_of_ceiling", ceiling}};
}

}  // namespace

nlohmann::json to_json(const RungResult& result) {
  nlohmann::json row = {
      {"rung", result.rung}, {"backend", backend_name(result.backend)}, {"status", status_name(result.status)}};
  if (result.status != RungStatus::ok) row["reason"] = result.reason;
  if (const auto& placement = result.placement) {
    row["device"] = placement->device;
    row["device_kind"] = placement->device_kind == DeviceKind::gpu ? "gpu" : "cpu";
    row["host_memory"] = placement->pinned ? "pinned" : "pageable";
    // Which clock timed the compute-only figure, and what else its window
    // holds: what `ladder compare` judges it by.
    row["compute_clock"] = placement->host_clock ? "host" : "device";
    if (!placement->host_work_in_compute.empty()) row["compute_window_holds"] = placement->host_work_in_compute;
  }
  if (const auto& check = result.check) {
    row["check"] = check->figures;
    row["check"]["ok"] = check->ok;
    row["check"]["detail"] = check->detail;
  }
  if (result.timings) row["timings"] = to_json(*result.timings);
  if (const auto& language = result.language) {
    row["language"] = (*language)["language"];
    row["python"] = *language;
    row["python"].erase("language");
    // The first calls are timings: two runs of one seed differ only in timings.
    if (row["python"].contains("first_call_s")) {
      if (row.contains("timings")) row["timings"]["first_call_s"] = row["python"]["first_call_s"];
      row["python"].erase("first_call_s");
    }
  }
  if (const auto& messages = result.communication) {
    row["communication"] = nlohmann::json::array();
    for (const Message& m : *messages)
      row["communication"].push_back({{"pattern", m.pattern}, {"bytes", m.bytes}, {"rounds", m.rounds}});
  }
  return row;
}

void add_speedups(nlohmann::json& rows) {
  auto median_of = [&](const std::string& rung, const char* figure) -> std::optional<double> {
    for (const auto& row : rows)
      if (row["rung"] == rung && row["status"] == "ok") return row["timings"][figure]["median_s"].get<double>();
    return std::nullopt;
  };
  for (auto& row : rows) {
    if (row["status"] != "ok") continue;
    auto ratios = [&](const std::string& baseline) {
      nlohmann::json r = {{"compute", nullptr}, {"transfer", nullptr}};
      for (const char* figure : {"compute", "transfer"})
        if (auto base = median_of(baseline, figure))
          r[figure] = *base / row["timings"][figure]["median_s"].get<double>();
      return r;
    };
    row["timings"]["speedup"] = {{"vs_naive", ratios("naive")}, {"vs_serial", ratios("serial")}};
  }
}

}  // namespace ladder
