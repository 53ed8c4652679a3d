#!/bin/bash
# Builds the benchmark into a scratch directory and runs it; meant for the test VM:
#   kmod/vm/run-tests.sh --kernel 6.1 --cmd 'kmod/bench/run.sh'
# It needs liburing-dev: run as root on the host, this installs it; the VM guest runs the
# host's root read-only, so there it can only name the package to install on the host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if ! dpkg-query -W -f='${Status}' liburing-dev 2>/dev/null | grep -q "install ok installed"; then
	if [ -n "${PINMX_VM:-}" ]; then
		echo "pinmx-bench: liburing-dev is missing; install it on the host" \
			"(apt-get install liburing-dev): the VM runs the host's root read-only" >&2
		exit 1
	fi
	# shellcheck source=../../scripts/lib.sh
	source "$here/../../scripts/lib.sh"
	pinmx_need_packages liburing-dev
fi
out=${TMPDIR:-/tmp}/pinmx-bench
make -s -C "$here" OUT="$out"
exec "$out/pinmx-bench"
