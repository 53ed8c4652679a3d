#!/usr/bin/env bash
# The one-sided benchmarks (bench-imb's io.pinmx.bench.osc) against C ARMCI-MPI over Open MPI in the same run, two
# ranks, then each Java row next to the C row with the ratio Java/C, and PNG plots.
#
#   rma/bench/run.sh [shm|driver|all] [ARGS...]   ARGS go to both sides: PROGRAM|all [-m MAX_BYTES] [-d DIVISOR] [-n MAX_N]
#                                                 [-w WINDOW_MS] [-l LOOPS] (default: all; driver: all -l 3)
#
# shm: one host; Java on the shared-memory tier, C ARMCI-MPI on Open MPI's shared memory (osc rdma over btl vader;
#   osc sm serves only windows MPI allocates, and ARMCI-MPI creates its own with MPI_Win_create).
# driver: Java across a veth pair between two network namespaces (made here, removed on exit), the user driver's UDP
#   frames (PINMX_RMA_SHARED_MEMORY=0); C ARMCI-MPI over Open MPI's TCP path (btl tcp, osc pt2pt) across the same
#   veth pair: mpirun runs in the first namespace and starts its daemon in the second through netns-rsh, as it
#   would on a second host over ssh (each namespace its own host name, each rank bound to its own CPU, as the Java
#   ranks are). Needs root and iproute2 (else the driver part is skipped, saying so).
# PINMX_BENCH_ROUNDS=R (default 1): run each side R times, C and Java in turn, so that both see the same changes of
#   the host; each value compared is then the median of the rounds, with the range of the rounds' own ratios beside.
# Outputs (TIER-c-K.txt, TIER-java-K.txt for round K), plots and the uptime before and after each side go to
# $PINMX_BENCH_OUT (default target/rma-bench/DATE).
# Needs the Debian packages libarmci-mpi-dev, libopenmpi-dev and openmpi-bin (installed when root, else named).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
pinmx_use_jdk

rounds=${PINMX_BENCH_ROUNDS:-1}
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "run.sh: PINMX_BENCH_ROUNDS='$rounds': expected a whole number >= 1" >&2
  exit 2
fi
mode=${1:-all}
case "$mode" in
  shm|driver|all) [ $# -gt 0 ] && shift ;;
  *) echo "run.sh: unknown mode '$mode': expected shm, driver or all" >&2; exit 2 ;;
esac
args=("$@")
# Without ARGS: every program; through the driver the median of 3 loops (about 4 minutes), with OSU's full counts:
# a tenth of them leaves the Java side's small operations running uncompiled code, several times slower.
shm_args=(all)
driver_args=(all -l 3)
if [ ${#args[@]} -gt 0 ]; then shm_args=("${args[@]}"); driver_args=("${args[@]}"); fi

pinmx_need_packages libarmci-mpi-dev libopenmpi-dev openmpi-bin
out=${PINMX_BENCH_OUT:-$PWD/target/rma-bench/$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$out"
mpicc -O2 -Wall -o "$out/armci_osc" rma/bench/armci_osc.c -larmci-openmpi
# As bin/pinmx-run: a classpath given in PINMX_CLASSPATH is used as it is (no build).
PINMX_CLASSPATH=${PINMX_CLASSPATH:-$(pinmx_classpath bench-imb)}
export PINMX_CLASSPATH
mpirun_root=()
[ "$(id -u)" -ne 0 ] || mpirun_root=(--allow-run-as-root)

compare() {
  local tier=$1 java=() c=() k
  for k in $(seq "$rounds"); do java+=("$out/$tier-java-$k.txt"); c+=("$out/$tier-c-$k.txt"); done
  echo "# $tier: Java ${java[*]}, C ${c[*]}; uptime before and after each:"
  sed 's/^/#   /' "$out/$tier-uptime.txt"
  "$JAVA_HOME/bin/java" -cp "$PINMX_CLASSPATH" io.pinmx.bench.osc.OscCompare \
    "$(IFS=,; echo "${java[*]}")" "$(IFS=,; echo "${c[*]}")" "$out/$tier" | tee "$out/$tier-compare.txt"
}

run_shm() {
  local k
  : > "$out/shm-uptime.txt"
  for k in $(seq "$rounds"); do
    echo "C, round $k: $(uptime)" >> "$out/shm-uptime.txt"
    mpirun "${mpirun_root[@]}" -np 2 --bind-to core --mca btl self,vader --mca osc rdma \
      "$out/armci_osc" "${shm_args[@]}" > "$out/shm-c-$k.txt"
    echo "Java, round $k: $(uptime)" >> "$out/shm-uptime.txt"
    bin/pinmx-run -np 2 io.pinmx.bench.osc.OscBench "${shm_args[@]}" > "$out/shm-java-$k.txt"
  done
  echo "end: $(uptime)" >> "$out/shm-uptime.txt"
  compare shm
}

run_driver() {
  if [ "$(id -u)" -ne 0 ] || ! command -v ip unshare taskset >/dev/null 2>&1; then
    echo "run.sh driver: skipped: needs root, iproute2's ip and util-linux's unshare and taskset to make network" \
      "namespaces joined by a veth pair and run a rank in each"
    return 0
  fi
  local id=$(( $$ % 100000 ))
  ns=("prmb${id}a" "prmb${id}b")
  local net="10.231.$(( $$ % 250 ))"
  local addr=("$net.1" "$net.2") status=0
  home=$(mktemp -d)
  trap 'ip netns del "${ns[0]}" 2>/dev/null || true; ip netns del "${ns[1]}" 2>/dev/null || true; rm -rf "$home"' EXIT
  pinmx_veth_namespaces "${ns[0]}" "${ns[1]}" "${addr[0]}" "${addr[1]}"
  : > "$out/driver-uptime.txt"
  printf '%s slots=1\n' "${addr[@]}" > "$out/driver-hosts"
  local k
  for k in $(seq "$rounds"); do
    echo "C (TCP across veth ${ns[0]}-${ns[1]}), round $k: $(uptime)" >> "$out/driver-uptime.txt"
    PINMX_NETNS_HOSTS="${addr[0]}=${ns[0]}/0 ${addr[1]}=${ns[1]}/1" rma/bench/netns-rsh "${addr[0]}" \
      mpirun "${mpirun_root[@]}" -np 2 --hostfile "$out/driver-hosts" --map-by node --bind-to none \
      --mca plm_rsh_agent "$PWD/rma/bench/netns-rsh" --mca oob_tcp_if_include "$net.0/24" \
      --mca btl self,tcp --mca btl_tcp_if_include "$net.0/24" --mca osc pt2pt \
      "$out/armci_osc" "${driver_args[@]}" > "$out/driver-c-$k.txt"
    echo "Java (UDP across veth ${ns[0]}-${ns[1]}), round $k: $(uptime)" >> "$out/driver-uptime.txt"
    PINMX_VETH_CPUS="0 1" pinmx_veth_ranks "${ns[0]}" "${ns[1]}" "${addr[0]}" "${addr[1]}" "$home" "rmab$$r$k" \
      PINMX_RMA_SHARED_MEMORY=0 -- io.pinmx.bench.osc.OscBench "${driver_args[@]}" || status=$?
    cp "$home/out-0" "$out/driver-java-$k.txt"
    if [ "$status" -ne 0 ]; then
      return "$status"
    fi
  done
  echo "end: $(uptime)" >> "$out/driver-uptime.txt"
  compare driver
}

case "$mode" in
  shm) run_shm ;;
  driver) run_driver ;;
  all) run_shm; run_driver ;;
esac
