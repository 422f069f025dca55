"""Reading a results JSON written by `ladder run --out`, for the report and compare scripts."""
import json
import sys
from pathlib import Path


def fail(program, message):
    """One message on stderr, exit status 2: the contract of every `ladder` command."""
    print(f"{program}: error: {message}", file=sys.stderr)
    sys.exit(2)


def load_results(program, path):
    try:
        results = json.loads(Path(path).read_text())
    except FileNotFoundError:
        fail(program, f"{path}: no such file")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        fail(program, f"{path}: not JSON ({error})")
    if not isinstance(results, dict) or results.get("schema_version") != 1:
        fail(program, f"{path}: not a results file of schema version 1 (written by `ladder run --out`)")
    return results
