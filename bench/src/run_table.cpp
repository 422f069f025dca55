// The table `ladder run` prints as it goes: its heading, and a row per rung
// as the rung finishes. A file of its own: how a row looks is not how the
// harness runs the rung.
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>

#include "bench/src/harness_internal.hpp"
#include "ladder/harness.hpp"

namespace ladder {

// The heading of the table printed as the run goes.
void print_table_header(std::ostream& out) {
  out << "  " << std::left << std::setw(kRungColumn) << "rung" << std::setw(9) << "status" << std::right << std::setw(11)
      << "compute" << std::setw(12) << "transfer" << std::setw(17) << "vs naive c/t" << std::setw(17) << "vs serial c/t"
      << std::setw(9) << "ceiling" << '\n';
}

namespace {

// Under a Python rung's row: its first calls (imports, JIT, kernel compiles),
// which the samples leave out.
void print_first_calls(std::ostream& out, const nlohmann::json& row) {
  if (!row.contains("timings") || !row["timings"].contains("first_call_s")) return;
  const nlohmann::json& first = row["timings"]["first_call_s"];
  if (first.empty()) return;
  out << std::string(kRungColumn + 2, ' ') << "first calls, not in the samples:";
  for (const std::string step : {"import", "prepare", "upload", "compute", "download"})
    if (first.contains(step)) out << ' ' << step << ' ' << format_time(first[step].get<double>());
  out << '\n';
}

}  // namespace

// One row of the table printed as the run goes.
void print_row(std::ostream& out, const nlohmann::json& row) {
  last_output = Clock::now();
  const std::string status = row["status"].get<std::string>();
  out << "  " << std::left << std::setw(kRungColumn) << row["rung"].get<std::string>() << std::setw(9) << status;
  if (status != "ok") {
    // "not_implemented" is wider than the column: a space keeps it apart from the reason.
    if (status.size() >= 9) out << ' ';
    out << row.value("reason", std::string()) << '\n' << std::flush;
    return;
  }
  const auto& t = row["timings"];
  // "~": compute + upload + download timed apart, not as round trips (--round-trips).
  const std::string derived = t["transfer"].contains("derived") ? "~" : "";
  out << std::right << std::setw(11) << format_time(t["compute"]["median_s"]) << std::setw(12)
      << derived + format_time(t["transfer"]["median_s"]);
  auto ratio = [](const nlohmann::json& value) {
    std::ostringstream s;
    if (value.is_null())
      s << "-";
    else
      s << std::fixed << std::setprecision(value.get<double>() < 10 ? 2 : 1) << value.get<double>();
    return s.str();
  };
  const auto& naive = t["speedup"]["vs_naive"];
  const auto& serial = t["speedup"]["vs_serial"];
  out << std::setw(9) << ratio(naive["compute"]) << std::setw(8) << ratio(naive["transfer"]) << std::setw(9)
      << ratio(serial["compute"]) << std::setw(8) << ratio(serial["transfer"]);
  // Compute-only against the device's ceiling; for a GPU rung, then its
  // transfer-inclusive time against what its bytes need over PCIe (the
  // figure that measures a rung whose compute() makes the copies itself).
  const auto& fraction = t["fraction_of_ceiling"];
  if (!fraction["compute"].is_null())
    out << std::setw(7) << std::fixed << std::setprecision(0) << fraction["compute"].get<double>() * 100 << " %";
  if (row.value("device_kind", std::string()) == "gpu" && !fraction["transfer"].is_null())
    out << " / " << std::fixed << std::setprecision(0) << fraction["transfer"].get<double>() * 100 << " % of PCIe";
  out << '\n';
  print_first_calls(out, row);
  out << std::flush;
}

}  // namespace ladder
