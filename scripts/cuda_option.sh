#!/usr/bin/env bash
# Prints the LADDER_CUDA value the scripts configure with: the caller's
# LADDER_CUDA where set (ON, OFF, or AUTO: wherever nvcc is; CI asks for
# AUTO so that the CUDA code cannot rot); else AUTO on a machine with an
# NVIDIA GPU and OFF elsewhere, where no CUDA rung could run and building
# them would cost the first build minutes.
if [ -n "${LADDER_CUDA:-}" ]; then
  echo "$LADDER_CUDA"
elif nvidia-smi -L >/dev/null 2>&1; then
  echo AUTO
else
  echo OFF
fi
