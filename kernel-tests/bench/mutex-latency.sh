#!/usr/bin/env bash
# Benchmark: lock + unlock of a mutex on another rank over lo on pinmx.ko, its host a passive target stopped with
# SIGSTOP, the same host running, and a host whose data server grants it; then hand-offs to a parked waiter and the
# CPU it uses over a 5 s wait, 3 ranks (io.pinmx.kerneltests.PassiveMutexLatency).
# On the host it builds kernel-tests and boots one guest (each vCPU its own TCG thread unless PINMX_VM_TCG_THREAD
# says otherwise), where it runs itself again:
#   kernel-tests/bench/mutex-latency.sh [--kernel 6.12|6.1] [--timeout SECONDS] [handoff [DEADLINE_S]]
# handoff: the 3-rank hand-off job alone, its file waits DEADLINE_S long (default 900); thread dumps if it is late.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
source "$repo/scripts/lib.sh"
target=$repo/kernel-tests/target
if [ -z "${PINMX_VM:-}" ]; then
  vm_args=() job_args=()
  while [ $# -gt 0 ]; do
    case $1 in
    --kernel | --timeout) vm_args+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
    *) job_args+=("$1"); shift ;;
    esac
  done
  pinmx_use_jdk
  (cd "$repo" && pinmx_mvn -q -DskipTests -pl kernel-tests -am package dependency:build-classpath \
    -Dmdep.outputFile=target/pinmx-vm.classpath -Dmdep.includeScope=test)
  PINMX_VM_TCG_THREAD=${PINMX_VM_TCG_THREAD:-multi} exec "$repo/kmod/vm/run-tests.sh" "${vm_args[@]}" \
    --cmd "kernel-tests/bench/mutex-latency.sh ${job_args[*]}"
fi
read -ra flags <<<"$(pinmx_jvm_flags)"
exec "$JAVA_HOME/bin/java" "${flags[@]}" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.io.tmpdir=/tmp \
  -cp "$target/test-classes:$target/classes:$(cat "$target/pinmx-vm.classpath")" \
  io.pinmx.kerneltests.PassiveMutexLatency /tmp/pinmx-mutex-latency "$@"
