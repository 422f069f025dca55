"""Reading a results JSON written by `ladder run --out`, for the report and compare scripts."""
import gzip
import json
import sys
from pathlib import Path


def fail(program, message):
    """One message on stderr, exit status 2: the contract of every `ladder` command."""
    print(f"{program}: error: {message}", file=sys.stderr)
    sys.exit(2)


SCHEMA = Path(__file__).with_name("results.schema.json")


def read_results_text(path):
    """The text of a results file: FILE.json as written, or FILE.json.gz as the committed runs under
    reports/ keep their largest files (gzip -9: a raw-sample file shrinks about fourfold)."""
    path = Path(path)
    if path.suffix == ".gz":
        with gzip.open(path, "rt") as text:
            return text.read()
    return path.read_text()


def plain_name(path):
    """FILE.json for FILE.json or FILE.json.gz: the name a rerun of that file is written under."""
    name = Path(path).name
    return name[:-len(".gz")] if name.endswith(".gz") else name


def refuse_constant(name):
    raise ValueError(f"holds {name}, a time that cannot be compared")


def load_results(program, path):
    """A results file, checked before anything reads it: JSON without NaN or Infinity, schema version 1,
    and valid against reports/results.schema.json (where the jsonschema module is installed; without it,
    the rows every command reads are checked by hand). Anything else is refused with exit status 2."""
    try:
        results = json.loads(read_results_text(path), parse_constant=refuse_constant)
    except FileNotFoundError:
        fail(program, f"{path}: no such file")
    except IsADirectoryError:
        fail(program, f"{path}: is a directory, not a results file")
    except (ValueError, EOFError, OSError) as error:
        # JSONDecodeError, UnicodeDecodeError and NaN/Infinity are ValueErrors; a .gz that is not gzip
        # (gzip.BadGzipFile) an OSError; one cut short an EOFError.
        fail(program, f"{path}: not a valid results file ({error})")
    if not isinstance(results, dict) or results.get("schema_version") != 1:
        fail(program, f"{path}: not a results file of schema version 1 (written by `ladder run --out`)")
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    if jsonschema is not None:
        validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
        error = next(iter(sorted(validator.iter_errors(results), key=lambda e: list(e.path))), None)
        if error is not None:
            where = "/".join(map(str, error.path)) or "the top level"
            fail(program, f"{path}: does not match reports/results.schema.json at {where}: {error.message}")
    elif not isinstance(results.get("results"), list) or not all(
            isinstance(entry, dict) and isinstance(entry.get("rungs"), list) for entry in results["results"]):
        fail(program, f"{path}: does not match reports/results.schema.json: every entry of 'results' needs its 'rungs'"
                      " (install python3-jsonschema for the full check)")
    return results


def best_cpu(entry):
    """The fastest CPU entry of one exercise run, rung or peer, any thread count: the honest baseline
    for a GPU rung (Lee et al., "Debunking the 100X GPU vs. CPU myth", ISCA 2010).

    Returns {"name", "compute_s", "end_to_end_s"} or None. A CPU rung's end-to-end time is its
    transfer-inclusive time (for a host rung, its compute and no-op copies; for OpenCL on a CPU
    device, with its buffer copies); a peer's is its compute time (it starts and ends in host memory)."""
    candidates = []
    for row in entry.get("rungs", []):
        if row.get("status") == "ok" and row.get("device_kind") == "cpu":
            t = row["timings"]
            candidates.append((row["rung"], t["compute"]["median_s"], t["transfer"]["median_s"]))
    for peer in entry.get("peers") or []:
        if peer.get("status") == "ok" and peer.get("device") == "cpu":
            median = peer["timings"]["compute"]["median_s"]
            candidates.append((f"peer: {peer['name']}", median, median))
    # A time of 0 is below its timer's resolution (primesieve's own --time at small n): not a figure.
    candidates = [c for c in candidates if c[1] > 0 and c[2] > 0]
    if not candidates:
        return None
    name, compute, _ = min(candidates, key=lambda c: c[1])
    return {"name": name, "compute_s": compute, "end_to_end_s": min(c[2] for c in candidates)}


def add_vs_best_cpu(results):
    """Adds timings.speedup.vs_best_cpu (compute, transfer) to every ok rung, and entry["best_cpu"]."""
    for entry in results["results"]:
        best = best_cpu(entry)
        entry["best_cpu"] = best
        for row in entry["rungs"]:
            if row.get("status") != "ok" or best is None:
                continue
            t = row["timings"]
            t.setdefault("speedup", {})["vs_best_cpu"] = {
                "compute": best["compute_s"] / t["compute"]["median_s"],
                "transfer": best["end_to_end_s"] / t["transfer"]["median_s"]}
