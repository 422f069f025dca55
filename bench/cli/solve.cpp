// `ladder solve EXERCISE --variant RUNG --input NAME=FILE ... --output
// FILE.npy`: one rung on the user's own data (.npy, or FITS where ladder
// was built with cfitsio), its output saved as .npy.
#include <filesystem>

#include "bench/cli/cli.hpp"
#include "ladder/error.hpp"
#include "ladder/fits.hpp"
#include "ladder/npy.hpp"

namespace ladder::cli {

int command_solve(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder solve` takes one exercise, e.g. `ladder solve vector_add`");
  auto problem = make_problem(args.positional[0]);
  std::string rung = args.value("--variant");
  if (rung.empty()) throw UsageError("`ladder solve` needs --variant RUNG (e.g. --variant serial)");
  chosen_rungs(*problem, {rung});  // refuses an unknown rung
  std::string output = args.value("--output");
  if (output.empty()) throw UsageError("`ladder solve` needs --output FILE.npy");
  RunOptions options = run_options(args);

  Params params = parameter_overrides(args);
  params.validate(problem->params(), problem->name());
  for (const auto& spec : problem->params())
    if (spec.generator_only && params.has(spec.name))
      throw UsageError("parameter " + spec.name +
                       " sets the size of generated inputs; `solve` takes it from the input files");

  std::string expected_names;
  for (const auto& input : problem->inputs()) expected_names += " " + input.name + "=FILE.npy";
  // The headers first: what the files hold decides whether the case fits in memory.
  std::map<std::string, std::string> paths;
  std::map<std::string, NpyLayout> npy_layouts;  // where each .npy input's data lies in its file
  ArrayShapes shapes;
  std::string files;
  for (const auto& text : args.values("--input")) {
    auto [name, path] = split_assignment(text, "--input");
    bool known = false;
    for (const auto& input : problem->inputs()) known |= input.name == name;
    if (!known)
      throw UsageError("unknown input '" + name + "' for " + problem->name() + " (accepted:" + expected_names + ")");
    if (paths.count(name)) throw UsageError("input '" + name + "' given twice");
    paths[name] = path;
    if (is_fits_path(path))
      shapes[name] = read_fits_shape(path);
    else
      shapes[name] = (npy_layouts[name] = read_npy_layout(path)).array;
    files += (files.empty() ? " on " : ", ") + path;
  }
  for (const auto& input : problem->inputs())
    if (!paths.count(input.name))
      throw UsageError("missing input '" + input.name + "' for " + problem->name() + " (expected:" + expected_names +
                       ")");
  refuse_unless_memory_suffices(problem->host_bytes(shapes, params), host_memory_limit(), problem->name() + files,
                                "try smaller inputs (e.g. a crop, or fewer frames) or --param values");
  Arrays inputs;
  for (const auto& [name, path] : paths) inputs[name] = is_fits_path(path) ? read_fits(path) : read_npy(path);
  problem->validate(inputs, params);
  std::map<std::string, const std::byte*> as_read;
  for (const auto& [name, array] : inputs) as_read[name] = array.raw();
  problem->normalise(inputs);
  // An input that is still the array read from its .npy file (normalise
  // made no converted copy of it): a distributed rung's other ranks may
  // read their own parts of the file themselves, rather than be sent them.
  for (const auto& [name, layout] : npy_layouts)
    if (inputs.at(name).raw() == as_read.at(name))
      options.input_files[name] = {std::filesystem::absolute(paths.at(name)).string(), layout.data_offset,
                                   layout.array};
  // The output must not replace one of the inputs (nor a directory, device or link).
  refuse_unless_replaceable(output);
  for (const auto& text : args.values("--input")) {
    std::error_code same_error;
    if (std::filesystem::equivalent(split_assignment(text, "--input").second, output, same_error))
      throw UsageError(output + ": is also an input of this command; give another output file");
  }

  const RungEntry* entry = find_rung(problem->name(), rung);
  if (entry == nullptr)  // a usage error: this build cannot have it (a missing device is run_once's device error)
    throw UsageError("rung " + rung + " of " + problem->name() +
                     " cannot run here: " + rung_availability(problem->name(), rung, kSolutionsTrack, options).reason);
  Arrays outputs = run_once(*entry, inputs, params, options, *problem);
  problem->save(output, outputs, inputs, params);
  return 0;
}

}  // namespace ladder::cli
