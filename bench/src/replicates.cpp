// Replicates: the same request run several times, merged into one entry
// with the samples pooled and the spread between the replicates' medians.
// A file of its own: `ladder run --replicates` uses it after the harness ran.
#include <algorithm>
#include <string>
#include <vector>

#include "ladder/harness.hpp"

namespace ladder {

double replicate_spread(const std::vector<double>& medians) {
  if (medians.size() < 2) return 0;
  auto [low, high] = std::minmax_element(medians.begin(), medians.end());
  double middle = summarise(medians).median;
  return middle > 0 ? (*high - *low) / middle : 0;
}

nlohmann::json merge_replicates(const std::vector<nlohmann::json>& passes) {
  nlohmann::json merged = passes.at(0);
  merged["replicates"] = passes.size();
  if (passes.size() < 2) return merged;
  auto& rows = merged["rungs"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& row = rows[i];
    // A rung that failed or was skipped in any replicate is reported as that replicate saw it.
    for (std::size_t r = 0; r < passes.size(); ++r) {
      const auto& other = passes[r]["rungs"][i];
      if (other["status"] != "ok" && row["status"] == "ok") {
        row = other;
        row["reason"] = "in replicate " + std::to_string(r + 1) + ": " + other.value("reason", std::string());
      }
    }
    if (row["status"] != "ok") continue;
    auto& timings = row["timings"];
    double old_compute = timings["compute"]["median_s"], old_transfer = timings["transfer"]["median_s"];
    for (const char* figure : {"compute", "transfer", "upload", "download"}) {
      std::vector<double> pooled, medians;
      for (const auto& pass : passes) {
        const auto& figures = pass["rungs"][i]["timings"][figure];
        for (double sample : figures["samples_s"]) pooled.push_back(sample);
        medians.push_back(figures["median_s"]);
      }
      const bool derived = timings[figure].contains("derived");  // in the first replicate
      timings[figure] = statistics_json(summarise(std::move(pooled)));
      if (derived) timings[figure]["derived"] = kDerivedTransfer;
      timings[figure]["replicate_medians_s"] = medians;
      timings[figure]["replicate_spread"] = replicate_spread(medians);
    }
    for (std::size_t r = 1; r < passes.size(); ++r)
      for (const auto& run : passes[r]["rungs"][i]["timings"]["google_benchmark"])
        timings["google_benchmark"].push_back(run);
    // Throughput and fraction of ceiling scale with the pooled medians.
    double compute_scale = old_compute / timings["compute"]["median_s"].get<double>();
    double transfer_scale = old_transfer / timings["transfer"]["median_s"].get<double>();
    for (auto& [name, value] : timings["throughput"].items()) value = value.get<double>() * compute_scale;
    auto& fraction = timings["fraction_of_ceiling"];
    if (!fraction["compute"].is_null()) fraction["compute"] = fraction["compute"].get<double>() * compute_scale;
    if (!fraction["transfer"].is_null())
      fraction["transfer"] =
          fraction["transfer"].get<double>() * (row["device_kind"] == "cpu" ? compute_scale : transfer_scale);
    row["high_spread"] = timings["compute"]["replicate_spread"].get<double>() > kHighSpread ||
                         timings["transfer"]["replicate_spread"].get<double>() > kHighSpread;
  }
  add_speedups(rows);
  return merged;
}

}  // namespace ladder
