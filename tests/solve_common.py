"""What the `ladder solve` tests share: NumPy and SciPy or a skip, the rungs of an exercise as
`ladder list --json` gives them, and the tally every test keeps of its
cases, which prints the summary and ends the test with its exit status."""
import importlib
import json
import subprocess
import sys
from pathlib import Path


def import_or_skip(*modules):
    """The modules, imported; or, where one is not installed for this Python,
    the test skipped (exit 77, which CTest reports as skipped) saying which."""
    try:
        return [importlib.import_module(name) for name in modules]
    except ImportError as error:
        print(f"skipped: {error.name or 'a module'} is not installed for {sys.executable}")
        sys.exit(77)


def rungs_of(ladder, exercise):
    listing = json.loads(subprocess.run([ladder, "list", "--json"], capture_output=True, text=True, check=True).stdout)
    return next(e for e in listing if e["exercise"] == exercise)["rungs"]


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def runs_here(self, rung):
        """True when the rung can run here; otherwise says why and counts it skipped."""
        if rung["runs_here"]:
            return True
        print(f"{rung['name']}: skipped ({rung['reason']})")
        self.skipped += 1
        return False

    def refused(self, run, fragment, outputs, what):
        """Counts a `ladder solve` that must refuse its input: exit 2, one message that says `fragment`,
        and none of `outputs` written."""
        if run.returncode == 2 and fragment in run.stderr and not any(Path(o).exists() for o in outputs):
            self.passed += 1
        else:
            print(f"{what}: FAILED: exit {run.returncode}, {run.stderr.strip()}")
            self.failed += 1

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped")
        sys.exit(1 if self.failed else 0)
