#!/usr/bin/env bash
# PingPong through the network stack: two ranks in two network namespaces joined by a veth pair (made here,
# removed on exit), as two hosts would be. pinmx on the user driver's UDP frames (the peers' addresses are not
# local to each other, so no shared memory is used) against TCP over the same veth, both busy-polling and bound
# to a CPU per rank, in the same run; ratios pinmx/tcp-busy. Extra arguments go to PingPong (e.g. -msglog 0:22,
# --baseline tcp,tcp-busy). Needs root and iproute2; otherwise it says so and exits 0 without measuring.
# The peer timeout is 30 s (PINMX_PEER_TIMEOUT_MS): on a loaded 2-core host a rank in its JIT warm-up can
# leave its partner unanswered for more than the library's 5 s.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
pinmx_use_jdk

if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
  echo "run-veth: skipped: needs root and iproute2's ip to make network namespaces and a veth pair"
  exit 0
fi

id=$(( $$ % 100000 ))
# PINMX_VETH_PREFIX: the start of the namespace and veth names (default pvb), so parallel runs do not collide.
prefix=${PINMX_VETH_PREFIX:-pvb}
ns=("${prefix}${id}a" "${prefix}${id}b")
net="10.232.$(( $$ % 250 ))"
addr=("$net.1" "$net.2")
home=$(mktemp -d)
cleanup() {
  ip netns del "${ns[0]}" 2>/dev/null || true
  ip netns del "${ns[1]}" 2>/dev/null || true
  rm -rf "$home"
}
trap cleanup EXIT

# PINMX_VETH_MTU: the veth pair's MTU (default 1500), the same for TCP and pinmx's UDP.
mtu=${PINMX_VETH_MTU:-1500}
pinmx_veth_namespaces "${ns[0]}" "${ns[1]}" "${addr[0]}" "${addr[1]}" "$mtu"

# One build for both ranks, before either starts.
PINMX_CLASSPATH=$(pinmx_classpath bench-imb)
export PINMX_CLASSPATH

args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--baseline tcp-busy -msglog 0:22)
veth_bytes() {
  local dir=/sys/class/net/${ns[1]}/statistics
  ip netns exec "${ns[1]}" sh -c "echo \$(( \$(cat $dir/rx_bytes) + \$(cat $dir/tx_bytes) ))"
}
before=$(veth_bytes)
status=0
pinmx_veth_ranks "${ns[0]}" "${ns[1]}" "${addr[0]}" "${addr[1]}" "$home" "veth$$" -- PingPong "${args[@]}" || status=$?
cat "$home/out-0"
echo "# veth ${ns[1]} (MTU $mtu): $(( $(veth_bytes) - before )) bytes (rx + tx) during the run, ranks at ${addr[0]} and ${addr[1]}"
exit "$status"
