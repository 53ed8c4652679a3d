#!/bin/bash
# Runs every pinmx C test inside the test VM (pinmx.ko loaded, root) and prints TAP.
# Usage: run-guest-tests.sh BINDIR   (BINDIR holds pinmx-tests; $PINMX_KO is the module)
# Exits non-zero if any test failed.
set -uo pipefail

bindir=${1:?usage: run-guest-tests.sh BINDIR}
bin=$bindir/pinmx-tests
net_bin=$bindir/pinmx-net-tests
per_test_timeout=${PINMX_TEST_TIMEOUT:-240}
n=0 failed=0
names=$("$bin" --list) || { echo "# $bin --list failed"; exit 1; }
read -ra names <<<"$(echo $names)"
net_names=$("$net_bin" --list) || { echo "# $net_bin --list failed"; exit 1; }
read -ra net_names <<<"$(echo $net_names)"
bad_log='\bWARNING\b|\bBUG\b|\bOops\b|Call Trace|general protection'

# TAP descriptions are the test names in words ("net veth netem loss ...").
report() {	# report STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - ${2//_/ }"
	else
		echo "not ok $n - ${2//_/ }"
		failed=$((failed + 1))
	fi
}

# Loads the module with the given parameters and prints the default pin mode it reports.
reload() {
	rmmod pinmx 2>/dev/null
	insmod "$PINMX_KO" "$@" || return 1
	"$bin" --default-mode
}

module_params() {
	local mode
	rmmod pinmx || return 1
	if insmod "$PINMX_KO" pin_mode=7 2>/dev/null; then
		echo "# insmod accepted pin_mode=7"
		return 1
	fi
	if insmod "$PINMX_KO" chunk_min_pages=8 chunk_max_pages=4 2>/dev/null; then
		echo "# insmod accepted chunk_min_pages > chunk_max_pages"
		return 1
	fi
	if insmod "$PINMX_KO" ifnames=lo,nosuch0 2>/dev/null; then
		echo "# insmod accepted ifnames=lo,nosuch0"
		return 1
	fi
	mode=$(reload ifnames=lo) || return 1
	[ "$mode" = 2 ] || { echo "# ifnames=lo reported mode $mode"; return 1; }
	mode=$(reload pin_mode=1) || return 1
	[ "$mode" = 1 ] || { echo "# pin_mode=1 reported mode $mode"; return 1; }
	mode=$(reload) || return 1
	[ "$mode" = 2 ] || { echo "# default reported mode $mode"; return 1; }
}

counters_debugfs() {
	local f=/sys/kernel/debug/pinmx/counters
	[ -r "$f" ] || { echo "# $f missing"; return 1; }
	grep -q '^pages_pinned_now 0$' "$f" || { echo "# pins left:"; sed 's/^/# /' "$f"; return 1; }
	grep -q '^regions_now 0$' "$f" || { echo "# regions left"; return 1; }
	grep -Eq '^invalidations [1-9]' "$f" || { echo "# no invalidation counted"; return 1; }
}

unload_clean() {
	rmmod pinmx || return 1
	[ ! -e /dev/pinmx ] || { echo "# /dev/pinmx still there"; return 1; }
	if dmesg | grep -Eq "$bad_log"; then
		dmesg | grep -E -A5 "$bad_log" | sed 's/^/# /'
		return 1
	fi
	insmod "$PINMX_KO"
}

run_test() {	# run_test BINARY NAME
	local start=$SECONDS status
	timeout -k 5 "$per_test_timeout" "$1" "$2"
	status=$?
	[ "$status" -eq 124 ] && echo "# $2: timed out after ${per_test_timeout}s"
	echo "# $2: $((SECONDS - start))s"
	report "$status" "$2"
}

echo "1..$((${#names[@]} + ${#net_names[@]} + 3))"
for name in "${names[@]}"; do
	run_test "$bin" "$name"
done
for name in "${net_names[@]}"; do
	run_test "$net_bin" "$name"
done
counters_debugfs
report $? "counters_debugfs"
module_params
report $? "module_params"
unload_clean
report $? "unload_clean_kernel_log"

echo "# $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
