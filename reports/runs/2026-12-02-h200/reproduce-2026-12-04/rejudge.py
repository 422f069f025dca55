#!/usr/bin/env python3
"""The comparison `ladder reproduce --device-only` prints, made again from the two files with this
checkout's `ladder compare` rule: the reference's device-timed rungs against the rerun's.

    python3 rejudge.py REFERENCE.json.gz RERUN.json.gz
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "reports"))
from ladder_compare import compare  # noqa: E402
from ladder_reproduce import device_rungs, only_rungs  # noqa: E402
from ladder_results import load_results  # noqa: E402

reference, rerun = load_results("reference", sys.argv[1]), load_results("rerun", sys.argv[2])
agree = compare(only_rungs(reference, device_rungs(reference)), rerun, names=("reference", "rerun"),
                new_rungs_differ=False)
sys.exit(0 if agree else 1)
