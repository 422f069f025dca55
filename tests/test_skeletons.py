#!/usr/bin/env python3
"""A participant's skeleton is its solution with marked regions taken out (issue 46).

A skeleton (exercises/<ex>/X, exercises/<ex>/kernels/X) holds its own text only
in regions, each opened by a line `// ==== yours ...` (where the participant
writes: the TODO comments and the LADDER_TODO line) or `// ==== exercise only ...`
(the exercise's own text: its opening comment, the include the TODO line needs,
a simpler launch that the task asks for) and closed by a line `// ==== end`.
Every other line is a line of its solution (solutions/<ex>/X, kernels/<ex>/X),
in the solution's order: the given parts are the solution's own lines, so they
cannot drift from it. Blank lines and trailing whitespace are not compared.

Fails on
  - a skeleton with no solution of its name (CMakeLists.txt, README.md and
    pictures/ aside);
  - a marker that does not open or close properly: an end with no region open,
    a region opened inside another, a region still open at the end of the file,
    a `// ====` line of no known kind;
  - a line outside the regions that is not the solution's: the file, the line
    and the line itself, and whether the solution has it elsewhere (out of order).
Then it plants drifts in a copy (a given line changed, a region's end deleted, a
skeleton with no solution) and fails unless the check finds each of them.

    test_skeletons.py SOURCE_DIR
"""
import re
import shutil
import sys
import tempfile
from pathlib import Path

# `//` in C++, CUDA and OpenCL files; `#` in the Python rungs.
OPEN = re.compile(r"^\s*(//|#) ==== (yours|exercise only)\b")
CLOSE = re.compile(r"^\s*(//|#) ==== end\s*$")
MARKER = re.compile(r"^\s*(//|#) ====")
NOT_SKELETONS = {"CMakeLists.txt", "README.md"}


def counterpart(root, skeleton):
    """exercises/<ex>/X -> solutions/<ex>/X; exercises/<ex>/kernels/X -> kernels/<ex>/X."""
    exercise, *rest = skeleton.relative_to(root / "exercises").parts
    if rest[0] == "kernels":
        return root / "kernels" / exercise / Path(*rest[1:])
    return root / "solutions" / exercise / Path(*rest)


def given_lines(text, name):
    """The skeleton's lines outside its regions, as (line number, line), and the marker errors."""
    given, errors, opened = [], [], None
    for number, line in enumerate(text.splitlines(), 1):
        if OPEN.match(line):
            if opened:
                errors.append(f"{name}:{number}: a region opens inside the region opened at line {opened}")
            opened = number
        elif CLOSE.match(line):
            if not opened:
                errors.append(f"{name}:{number}: `// ==== end` with no region open")
            opened = None
        elif MARKER.match(line):
            errors.append(f"{name}:{number}: not a marker (`// ==== yours`, `// ==== exercise only`, "
                          f"`// ==== end`): {line.strip()}")
        elif not opened and line.strip():
            given.append((number, line.rstrip()))
    if opened:
        errors.append(f"{name}:{opened}: the region opened here is never closed by `// ==== end`")
    return given, errors


def check_pair(skeleton_text, solution_text, name, solution_name):
    """The failures of one skeleton against its solution: marker errors, then the first given line
    that is not the solution's next line."""
    given, failures = given_lines(skeleton_text, name)
    solution = [line.rstrip() for line in solution_text.splitlines() if line.strip()]
    position = 0  # the solution's lines before it are used up
    for number, line in given:
        try:
            position = solution.index(line, position) + 1
        except ValueError:
            where = ("the solution has it, but only before the given line above it (out of order)"
                     if line in solution else f"not a line of {solution_name}")
            failures.append(f"{name}:{number}: {where}:\n    {line.strip()}")
            break  # the lines after it would be compared from the wrong place
    return failures


def check_tree(root):
    """Every skeleton of every exercise under root: (failures, number of skeletons, given lines)."""
    failures, skeletons, lines = [], 0, 0
    for folder in sorted(p for p in (root / "exercises").iterdir() if p.is_dir()):
        for skeleton in sorted(p for p in folder.rglob("*") if p.is_file()):
            relative = skeleton.relative_to(folder)
            if skeleton.name in NOT_SKELETONS or relative.parts[0] == "pictures":
                continue
            name = str(skeleton.relative_to(root))
            solution = counterpart(root, skeleton)
            if not solution.is_file():
                failures.append(f"{name}: no solution of that name ({solution.relative_to(root)})")
                continue
            text = skeleton.read_text()
            skeletons += 1
            lines += len(given_lines(text, name)[0])
            failures += check_pair(text, solution.read_text(), name, str(solution.relative_to(root)))
    return failures, skeletons, lines


def plant_drifts(root):
    """In a copy of the tree: change the last given line of the first skeleton, delete the first
    region's end in the second, add a skeleton with no solution. What the check must then say."""
    skeletons = sorted(p for p in (root / "exercises").glob("*/*.cpp"))
    first, second = skeletons[0], skeletons[1]
    lines = first.read_text().splitlines()
    number = given_lines(first.read_text(), "")[0][-1][0]
    lines[number - 1] += "  // drifted"
    first.write_text("\n".join(lines) + "\n")
    lines = second.read_text().splitlines()
    end = next(i for i, line in enumerate(lines) if CLOSE.match(line))
    del lines[end]
    second.write_text("\n".join(lines) + "\n")
    orphan = first.parent / "no_such_rung.cpp"
    orphan.write_text("// a skeleton with no solution\n")
    return [(f"{first.relative_to(root)}:{number}: ", "not a line of"),
            (f"{second.relative_to(root)}:", "a region opens inside|never closed"),
            (f"{orphan.relative_to(root)}: ", "no solution of that name")]


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    failures, skeletons, lines = check_tree(root)
    for failure in failures:
        print(f"FAILED: {failure}")
    print(f"{skeletons} skeletons, {lines} given lines checked against their solutions")
    if failures:
        print("A given line must be the solution's line: copy the solution's, or, where the exercise really\n"
              "needs its own text, put it between `// ==== exercise only` and `// ==== end`.")

    # The check can fail: plant drifts in a copy and expect each one found.
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work)
        for folder in ("exercises", "solutions", "kernels"):
            shutil.copytree(root / folder, copy / folder)
        expected = plant_drifts(copy)
        found, _, _ = check_tree(copy)
        for where, what in expected:
            hits = [f for f in found if f.startswith(where) and re.search(what, f)]
            if hits:
                print(f"ok: the check finds a planted drift: {hits[0].splitlines()[0]}")
            else:
                failures.append(f"planted drift not found: {where} {what}")
                print(f"FAILED: the planted drift at {where} ({what}) was not found; the check said:")
                for f in found:
                    print(f"    {f}")

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
