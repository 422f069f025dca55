// What this machine offers: `ladder list`, every exercise with its summary,
// sizes, parameters, inputs and rungs, and for each rung whether it was
// built and can run here; `ladder devices`, the CUDA devices and the OpenCL
// platforms and devices it has.
#include <iomanip>
#include <iostream>

#include "bench/cli/cli.hpp"

namespace ladder::cli {

int command_list(const Arguments& args) {
  RunOptions options = run_options(args);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();  // sizes in the problem's order
  for (const auto& name : exercise_names()) {
    auto problem = make_problem(name);
    nlohmann::ordered_json rungs = nlohmann::ordered_json::array();
    for (const auto& rung : ladder_rungs(*problem)) {
      const RungEntry* entry = find_rung(name, rung);
      Backend backend = entry ? entry->backend : backend_of(rung);
      Availability availability = rung_availability(name, rung, kSolutionsTrack, options);
      rungs.push_back({{"name", rung},
                       {"backend", backend_name(backend)},
                       {"built", entry != nullptr},
                       {"runs_here", availability.available},
                       {"reason", availability.reason}});
    }
    nlohmann::ordered_json sizes = nlohmann::ordered_json::object();
    for (const auto& preset : problem->sizes()) sizes[preset.name] = preset.values;
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (const auto& spec : problem->params()) {
      nlohmann::ordered_json param = {{"name", spec.name}, {"description", spec.description}};
      if (spec.choices.empty())
        param["min"] = spec.min, param["max"] = spec.max;
      else
        param["choices"] = spec.choices;
      params.push_back(param);
    }
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    for (const auto& input : problem->inputs()) inputs.push_back({{"name", input.name}, {"accepted", input.accepted}});
    list.push_back({{"exercise", name},
                    {"summary", problem->summary()},
                    {"rungs", rungs},
                    {"sizes", sizes},
                    {"parameters", params},
                    {"inputs", inputs}});
  }
  if (args.flag("--json")) {
    std::cout << list.dump(2) << '\n';
    return 0;
  }
  for (const auto& exercise : list) {
    std::cout << exercise["exercise"].get<std::string>() << ": " << exercise["summary"].get<std::string>() << '\n';
    std::cout << "  sizes:";
    for (const auto& [size, values] : exercise["sizes"].items()) {
      std::cout << ' ' << size << " (";
      bool first = true;
      for (const auto& [key, value] : values.items())
        std::cout << (first ? "" : ", ") << key << '=' << value.get<std::string>(), first = false;
      std::cout << ')';
    }
    std::cout << '\n';
    for (const auto& rung : exercise["rungs"]) {
      std::cout << "  " << std::left << std::setw(24) << rung["name"].get<std::string>() << std::setw(15)
                << rung["backend"].get<std::string>()
                << (rung["runs_here"].get<bool>() ? "runs here"
                                                  : "cannot run here: " + rung["reason"].get<std::string>())
                << '\n';
    }
  }
  return 0;
}

int command_devices(const Arguments& args) {
  nlohmann::json devices = {{"cuda", cuda_devices()}, {"opencl", opencl_devices()}};
  if (args.flag("--json")) {
    std::cout << devices.dump(2) << '\n';
    return 0;
  }
  std::cout << "CUDA devices:" << (devices["cuda"].empty() ? " none (" + cuda_availability({}).reason + ")" : "")
            << '\n';
  for (const auto& d : devices["cuda"])
    std::cout << "  " << d["index"] << ": " << d["name"].get<std::string>() << " (compute capability "
              << d["compute_capability"].get<std::string>() << ", " << d["multiprocessors"] << " SMs, "
              << d["global_memory_bytes"].get<double>() / (1 << 30) << " GiB)\n";
  std::cout << "OpenCL devices:" << (devices["opencl"].empty() ? " none" : "") << '\n';
  for (const auto& d : devices["opencl"])
    std::cout << "  " << d["id"].get<std::string>() << ": " << d["name"].get<std::string>() << " ["
              << d["type"].get<std::string>() << ", " << d["platform"].get<std::string>() << ", "
              << d["version"].get<std::string>() << "]\n";
  return 0;
}

}  // namespace ladder::cli
