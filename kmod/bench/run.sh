#!/bin/bash
# Builds the benchmark into a scratch directory and runs it; meant for the test VM:
#   kmod/vm/run-tests.sh --kernel 6.1 --cmd 'kmod/bench/run.sh'
set -euo pipefail
out=${TMPDIR:-/tmp}/pinmx-bench
make -s -C "$(dirname "$0")" OUT="$out"
exec "$out/pinmx-bench"
