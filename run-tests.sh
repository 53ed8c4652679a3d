#!/usr/bin/env bash
# Runs every pinmx test: the Java suites (Maven) and the real launchers (srun, mpirun) on the host, the
# packaging checks (dkms, modinfo, udev; root only), then the kernel module's
# tests and the Java tests that need /dev/pinmx inside a VM on Debian 12's 6.1 and 6.12 kernels. Installs what it needs when run
# as root. Exits non-zero if anything failed; the last line sums it up.
set -uo pipefail
source "$(dirname "$0")/scripts/lib.sh"
cd "$PINMX_ROOT"
pinmx_use_jdk
echo "pinmx: JDK $JAVA_HOME"

failed_steps=()
java_passed=0 java_failed=0

# rma's KernelFaultSoakTest damages frames between network namespaces with nftables, HTB and ethtool (root only).
[ "$(id -u)" -eq 0 ] && pinmx_need_packages iproute2 nftables ethtool
if pinmx_mvn -fae verify; then :; else failed_steps+=("java"); fi

# Surefire's XML reports are the source of truth for the Java counts.
for report in */target/surefire-reports/TEST-*.xml; do
  [ -f "$report" ] || continue
  head=$(grep -m1 -o '<testsuite [^>]*>' "$report")
  attr() { sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p" <<<"$head"; }
  tests=$(attr tests) failures=$(attr failures) errors=$(attr errors) skipped=$(attr skipped)
  bad=$(( ${failures:-0} + ${errors:-0} ))
  java_failed=$(( java_failed + bad ))
  java_passed=$(( java_passed + ${tests:-0} - bad - ${skipped:-0} ))
done
echo "java: $java_passed passed, $java_failed failed"

# Installing the module on a real host: dkms build against both kernels, modinfo, the udev rule (root only).
pkg_passed=0 pkg_failed=0
if [ "$(id -u)" -eq 0 ]; then
  log=$(mktemp)
  if kmod/packaging-tests.sh 2>&1 | tee "$log"; then :; else failed_steps+=("packaging"); fi
  line=$(grep -E "^packaging: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
  pkg_passed=$(sed -n 's/.*: \([0-9]*\) passed.*/\1/p' <<<"$line")
  pkg_failed=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line")
  if [ -z "$line" ]; then pkg_failed=1 pkg_passed=0; fi
  rm -f "$log"
else
  echo "packaging: skipped (needs root)"
fi

# Real launchers (srun of a one-node Slurm, Open MPI's mpirun) running PingPong through bin/pinmx-run.
launcher_passed=0 launcher_failed=0
log=$(mktemp)
if scripts/launcher-tests.sh 2>&1 | tee "$log"; then :; else failed_steps+=("launchers"); fi
line=$(grep -E "^launchers: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
if [ -n "$line" ]; then
  launcher_passed=$(sed -n 's/^launchers: \([0-9]*\) passed.*/\1/p' <<<"$line")
  launcher_failed=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line")
fi
rm -f "$log"

# Per kernel, a lane: the module's C tests, then the Java tests that need /dev/pinmx (kernel-tests). The two
# kernels' lanes run at once (each VM's TCG is one host thread; serially they were two thirds of the whole run):
# 6.1's output streams, 6.12's is printed when its lane ends. The job classes and tests tagged ci-lane-6.1 or
# ci-lane-6.12 run in that lane only; PINMX_VM_JAVA_EXCLUDE_TAGS, when set (empty: none), replaces that split in both lanes.
vm_logs=$(mktemp -d)
vm_lane() {
  local kernel=$1 shown=$2 other=$3 step=0 java_args log status
  local -x PINMX_VM_JAVA_EXCLUDE_TAGS=${PINMX_VM_JAVA_EXCLUDE_TAGS-ci-lane-$other}
  # The Java step's guest time grows with the host's load (TCG): 40 min before its VM is stopped.
  for java_args in "" "--java kernel-tests --timeout 2400"; do
    step=$(( step + 1 ))
    log=$vm_logs/$kernel.$step.log
    # shellcheck disable=SC2086 # java_args is empty or several words
    if [ "$shown" = shown ]; then
      kmod/vm/run-tests.sh --kernel "$kernel" $java_args 2>&1 | tee "$log"
      status=${PIPESTATUS[0]}
    else
      kmod/vm/run-tests.sh --kernel "$kernel" $java_args >"$log" 2>&1
      status=$?
    fi
    echo "$status" >"$vm_logs/$kernel.$step.status"
  done
}
vm_lane 6.12 quiet 6.1 &
lane_612=$!
# An interrupted run stops the other lane too (its VM script kills its qemu on TERM).
stop_lane() {
  local steps
  steps=$(pgrep -P "$1")
  kill "$1" 2>/dev/null
  # shellcheck disable=SC2086 # a list of pids
  [ -n "$steps" ] && kill -TERM $steps 2>/dev/null
}
trap 'stop_lane "$lane_612"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
vm_lane 6.1 shown 6.12
wait "$lane_612"
trap - EXIT INT TERM

vm_passed=0 vm_failed=0
for run in "6.1 1" "6.1 2" "6.12 1" "6.12 2"; do
  read -r kernel step <<<"$run"
  log=$vm_logs/$kernel.$step.log
  [ "$kernel" = 6.12 ] && cat "$log"
  name="vm-$kernel$([ "$step" = 2 ] && echo " java")"
  [ "$(cat "$vm_logs/$kernel.$step.status" 2>/dev/null)" = 0 ] || failed_steps+=("$name")
  line=$(grep -E "^vm-$kernel: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
  p=$(sed -n 's/.*: \([0-9]*\) passed.*/\1/p' <<<"$line")
  f=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line")
  if [ -z "$line" ]; then f=1 p=0; fi
  vm_passed=$(( vm_passed + p )) vm_failed=$(( vm_failed + f ))
done
rm -rf "$vm_logs"

total_failed=$(( java_failed + pkg_failed + launcher_failed + vm_failed ))
if [ ${#failed_steps[@]} -gt 0 ] && [ "$total_failed" -eq 0 ]; then
  # A step failed without a failing test (build error, VM hang): still a failure.
  total_failed=${#failed_steps[@]}
fi
[ ${#failed_steps[@]} -gt 0 ] && echo "pinmx: failed steps: ${failed_steps[*]}"
echo "all: $(( java_passed + pkg_passed + launcher_passed + vm_passed )) passed, $total_failed failed"
[ ${#failed_steps[@]} -eq 0 ]
