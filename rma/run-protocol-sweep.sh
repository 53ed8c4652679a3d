#!/usr/bin/env bash
# The driver tier's protocol sweep (io.pinmx.rma.protocol.bench.ProtocolSweep), 2 ranks, shared-memory tier off:
#   rma/run-protocol-sweep.sh [REPS]          both ranks on this host (the user driver's UDP frames over lo)
#   rma/run-protocol-sweep.sh --veth [REPS]   each rank in its own network namespace, joined by a veth pair made
#                                             here and removed on exit (as two hosts would be); needs root and ip.
#                                             Each rank's process runs on a CPU of its own (PINMX_VETH_CPUS, default
#                                             "0 1" with two or more CPUs), as rma/bench/run.sh binds them: unbound,
#                                             whole points now and then run far slower per operation, when the
#                                             ranks' threads share a CPU.
# The cost model is measured at the start of each run (PINMX_RMA_RECALIBRATE=1) into a file of the run's own, so
# the sweep judges the model of the moment, not one cached on a quieter or busier day. PINMX_CLASSPATH, if set, is
# used as it is (no build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
pinmx_use_jdk

veth=0
if [ "${1:-}" = --veth ]; then veth=1; shift; fi
reps=${1:-10}
home=$(mktemp -d)
PINMX_CLASSPATH=${PINMX_CLASSPATH:-$(pinmx_classpath rma)}
export PINMX_CLASSPATH PINMX_RMA_SHARED_MEMORY=0 PINMX_RMA_RECALIBRATE=1 PINMX_RMA_MODEL_FILE="$home/model.properties"
main=io.pinmx.rma.protocol.bench.ProtocolSweep

if [ "$veth" -eq 0 ]; then
  trap 'rm -rf "$home"' EXIT
  echo "# $(uptime)"
  bin/pinmx-run -np 2 "$main" "$reps"
  echo "# $(uptime)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
  echo "run-protocol-sweep: --veth needs root and iproute2's ip to make network namespaces and a veth pair"
  exit 1
fi
id=$(( $$ % 100000 ))
ns=("prmp${id}a" "prmp${id}b")
net="10.233.$(( $$ % 250 ))"
addr=("$net.1" "$net.2")
cleanup() {
  ip netns del "${ns[0]}" 2>/dev/null || true
  ip netns del "${ns[1]}" 2>/dev/null || true
  rm -rf "$home"
}
trap cleanup EXIT
if [ -z "${PINMX_VETH_CPUS+set}" ] && [ "$(nproc)" -ge 2 ]; then
  export PINMX_VETH_CPUS="0 1"
fi
pinmx_veth_namespaces "${ns[0]}" "${ns[1]}" "${addr[0]}" "${addr[1]}"
echo "# $(uptime)"
status=0
pinmx_veth_ranks "${ns[0]}" "${ns[1]}" "${addr[0]}" "${addr[1]}" "$home" "prmp$$" -- "$main" "$reps" || status=$?
cat "$home/out-0"
echo "# veth ${ns[0]} - ${ns[1]}, ranks at ${addr[0]} and ${addr[1]}, on CPUs '${PINMX_VETH_CPUS:-any}'; $(uptime)"
exit "$status"
