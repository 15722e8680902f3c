#!/bin/bash
# The main demo: install what is missing (Debian), build lied, simulate the
# crane crab (a cart with a swinging pendulum, seed paper 002) and plot the
# cart position and the pendulum angle: in the terminal (or a window when a
# display exists) and into cranecrab.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
./build/lied examples/cranecrab.lua
./build/lied examples/cranecrab.lua cranecrab.png
