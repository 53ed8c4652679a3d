#!/usr/bin/env bash
# Real launchers start a pinmx job: IMB PingPong through bin/pinmx-run under
#   - srun -n 2 (and srun --mpi=pmix -n 2, through Slurm's PMIx server) of a one-node Slurm that this script configures for this host, starts (munged, slurmctld, slurmd,
#     all in a private directory, on their own ports and munge socket) and stops again; through the PMIx server
#     also RankRing, RmaRing (fetch-and-add tickets), an MPJ Express program (NPB IS class S, verified) and a
#     rank killed in a barrier, named by both survivors;
#   - srun --mpi=pmix -N 2 of a two-node Slurm whose "nodes" are two network namespaces joined by a veth pair
#     (slurmctld and one slurmd in the first, the other slurmd in the second, each node's ranks with a HOME and
#     shared-memory directory of their own): RankRing and PingPong, the payload checked on the veth;
#   - Open MPI's mpirun -np 2.
# Installs slurm-wlm, munge, libpmix-dev (Slurm's PMIx plugin loads the unversioned libpmix.so) and openmpi-bin
# when missing (root only; once). A launcher that cannot run here is skipped with the reason. The bench classpath
# is built once (PINMX_CLASSPATH, if set, is used as it is; the MPJ program's is mpj-device's), so no task runs Maven.
# Checks each program's lines, exit status, and that the bootstrap file is gone afterwards. Also the main job's series
# script (bench-imb/run-series.sh) once, judged on its tally. Arguments pick parts (slurm, slurm-netns, mpirun,
# series; default all four).
# Last line: "launchers: N passed, N failed, N skipped".
set -uo pipefail
source "$(dirname "$(readlink -f "$0")")/lib.sh"
cd "$PINMX_ROOT"
pinmx_use_jdk

readonly DEADLINE_S=180
readonly SIZES_LOG=10 # -msglog 0:10: sizes 0, 1, 2, ..., 1024 = 12 rows
passed=0 failed=0 skipped=0 started=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/pinmx-launchers.XXXXXX")
daemons=() namespaces=()
stop_daemons() {
  local pid
  for pid in "${daemons[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null; done
  daemons=()
}
remove_namespaces() {
  local name
  for name in "${namespaces[@]}"; do ip netns del "$name" 2>/dev/null; done
  namespaces=()
}
trap 'stop_daemons; remove_namespaces; rm -rf "$work"' EXIT

result() { # launcher status detail
  echo "launcher $1: $2${3:+: $3}"
  case $2 in passed) passed=$((passed + 1)) ;; failed) failed=$((failed + 1)) ;; *) skipped=$((skipped + 1)) ;; esac
}

# Judges one run: exit status, 12 PingPong rows from rank 0, the bootstrap directory empty.
judge() { # launcher status out err home
  local rows
  rows=$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ *$' "$3")
  if [ "$2" -ne 0 ]; then
    result "$1" failed "exit status $2; stderr: $(tail -n 5 "$4" | tr '\n' ' ')"
  elif [ "$rows" -ne $((SIZES_LOG + 2)) ]; then
    result "$1" failed "expected $((SIZES_LOG + 2)) PingPong rows, got $rows: $(tr '\n' ' ' <"$3")"
  elif [ -n "$(ls -A "$5/.pinmx" 2>/dev/null)" ]; then
    result "$1" failed "bootstrap files left in $5/.pinmx: $(ls "$5/.pinmx" | tr '\n' ' ')"
  else
    result "$1" passed "$rows PingPong rows in $((SECONDS - started)) s, $(grep -m1 '^# progress' "$3" | cut -c1-60)..."
  fi
}

# Judges a program's run: exit status, each pattern matching exactly one line of its output, no bootstrap file.
judge_lines() { # launcher status out err home pattern...
  local name=$1 status=$2 out=$3 err=$4 home=$5 pattern count
  shift 5
  if [ "$status" -ne 0 ]; then
    result "$name" failed "exit status $status; stderr: $(tail -n 5 "$err" | tr '\n' ' ')"
    return
  fi
  for pattern in "$@"; do
    count=$(grep -cE -- "$pattern" "$out")
    if [ "$count" -ne 1 ]; then
      result "$name" failed "'$pattern' matched $count lines, not 1: $(tr '\n' ' ' <"$out" | cut -c1-400)"
      return
    fi
  done
  if [ -n "$(ls -A "$home/.pinmx" 2>/dev/null)" ]; then
    result "$name" failed "bootstrap files left in $home/.pinmx: $(ls "$home/.pinmx" | tr '\n' ' ')"
  else
    result "$name" passed "$# lines checked in $((SECONDS - started)) s"
  fi
}

if [ -z "${PINMX_CLASSPATH:-}" ]; then
  PINMX_CLASSPATH=$(pinmx_classpath bench-imb) || { echo "launchers: building bench-imb failed"; exit 1; }
fi
export PINMX_CLASSPATH
pingpong=(bin/pinmx-run PingPong -msglog "0:$SIZES_LOG" -iter 50)

# A munge daemon with a key of its own in DIR (the host's munge, if any, is left alone).
start_munge() {
  local dir=$1
  head -c 1024 /dev/urandom >"$dir/munge.key"
  chmod 400 "$dir/munge.key"
  munged -F --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" 2>>"$dir/munged.log" &
  daemons+=($!)
}

# The slurm.conf lines both test clusters share: root daemons authenticated by DIR's munge, no accounting.
slurm_shared_settings() {
  local dir=$1
  cat <<EOF
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
EOF
}

run_slurm() {
  if [ "$(id -u)" -ne 0 ]; then
    result slurm skipped "needs root to start munged, slurmctld and slurmd"
    return
  fi
  pinmx_need_packages slurm-wlm munge libpmix-dev
  local dir=$work/slurm host base
  mkdir -p "$dir/state" "$dir/spool" "$dir/tmp" "$dir/home"
  host=$(hostname -s)
  base=$((20000 + RANDOM % 20000))
  start_munge "$dir"
  cat >"$dir/slurm.conf" <<EOF
ClusterName=pinmx
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
$(slurm_shared_settings "$dir")
SlurmdSpoolDir=$dir/spool
TmpFS=$dir/tmp
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=pinmx Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
EOF
  export SLURM_CONF=$dir/slurm.conf
  for _ in $(seq 100); do [ -S "$dir/munge.socket" ] && break; sleep 0.1; done
  slurmctld -D -f "$SLURM_CONF" 2>>"$dir/slurmctld.log" &
  daemons+=($!)
  slurmd -D -N "$host" -f "$SLURM_CONF" 2>>"$dir/slurmd.log" &
  daemons+=($!)
  local state=""
  for _ in $(seq 300); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
    [ "$state" = idle ] && break
    sleep 0.1
  done
  if [ "$state" != idle ]; then
    result slurm failed "node $host not idle after 30 s (state '$state'); slurmctld.log: $(tail -n 3 "$dir/slurmctld.log" | tr '\n' ' ') slurmd.log: $(tail -n 3 "$dir/slurmd.log" | tr '\n' ' ')"
    stop_daemons
    unset SLURM_CONF
    return
  fi
  started=$SECONDS
  HOME=$dir/home timeout "$DEADLINE_S" srun -n 2 -N 1 --overcommit "${pingpong[@]}" >"$dir/out" 2>"$dir/err"
  judge slurm $? "$dir/out" "$dir/err" "$dir/home"
  # The same through Slurm's PMIx server (the mpi_pmix plugin): the ranks meet through it, no bootstrap file.
  if srun --mpi=list 2>&1 | grep -q pmix; then
    started=$SECONDS
    HOME=$dir/home timeout "$DEADLINE_S" srun --mpi=pmix -n 2 -N 1 --overcommit "${pingpong[@]}" >"$dir/out-pmix" \
      2>"$dir/err-pmix"
    judge "slurm pmix" $? "$dir/out-pmix" "$dir/err-pmix" "$dir/home"
    run_slurm_pmix_programs "$dir"
  else
    result "slurm pmix" skipped "srun --mpi=list offers no pmix plugin: $(srun --mpi=list 2>&1 | tr '\n' ' ')"
  fi
  stop_daemons
  unset SLURM_CONF
}

# The job module's example, the one-sided layer's and an MPJ Express program through Slurm's PMIx server.
run_slurm_pmix_programs() { # dir
  local dir=$1 mpj_cp
  started=$SECONDS
  HOME=$dir/home timeout "$DEADLINE_S" srun --mpi=pmix -n 2 -N 1 --overcommit bin/pinmx-run \
    io.pinmx.job.example.RankRing >"$dir/out-ring" 2>"$dir/err-ring"
  judge_lines "slurm pmix RankRing" $? "$dir/out-ring" "$dir/err-ring" "$dir/home" \
    '^rank 0 of 2 got 1 from rank 1$' '^rank 1 of 2 got 0 from rank 0$'
  started=$SECONDS
  HOME=$dir/home timeout "$DEADLINE_S" srun --mpi=pmix -n 2 -N 1 --overcommit bin/pinmx-run \
    io.pinmx.rma.example.RmaRing >"$dir/out-rma" 2>"$dir/err-rma"
  judge_lines "slurm pmix RmaRing" $? "$dir/out-rma" "$dir/err-rma" "$dir/home" \
    '^rank 0 of 2 received 1, ticket [01], parity sum 0, total 1$' \
    '^rank 1 of 2 received 0, ticket [01], parity sum 1, total 1$' ', ticket 0,' ', ticket 1,'
  # Rank 1 SIGKILLs itself while ranks 0 and 2 wait in a barrier: Slurm's server keeps no process table, so each
  # survivor names it by the pid it put at join (io.pinmx.job.DyingRank, of the job module's test classes).
  started=$SECONDS
  HOME=$dir/home PINMX_CLASSPATH=$PINMX_CLASSPATH:$PINMX_ROOT/job/target/test-classes PINMX_PEER_TIMEOUT_MS=100000 \
    timeout "$DEADLINE_S" srun --mpi=pmix -n 3 -N 1 --overcommit --kill-on-bad-exit=0 bin/pinmx-run \
    io.pinmx.job.DyingRank barrier >"$dir/out-dying" 2>"$dir/err-dying"
  local dead
  dead=$(sed -n 's/^rank 1 kills itself, pid \([0-9]*\)$/\1/p' "$dir/out-dying")
  if [ -z "$dead" ] || [ "$(grep -cE "^survivor [02] after [0-9]+ ms failed: job: rank [02] barrier: rank 1 \(pid $dead\) ended: its process exited \(this node\)" "$dir/out-dying")" -ne 2 ]; then
    result "slurm pmix killed rank" failed "both survivors should name rank 1 (pid ${dead:-?}): $(tr '\n' ' ' <"$dir/out-dying" | cut -c1-600) $(tail -n 3 "$dir/err-dying" | tr '\n' ' ')"
  else
    result "slurm pmix killed rank" passed "both survivors named rank 1 in $((SECONDS - started)) s"
  fi
  if ! mpj_cp=$(pinmx_classpath mpj-device 2>"$dir/err-mpj-build"); then
    result "slurm pmix MPJ" failed "building mpj-device: $(tail -n 5 "$dir/err-mpj-build" | tr '\n' ' ')"
    return
  fi
  started=$SECONDS
  HOME=$dir/home PINMX_CLASSPATH=$mpj_cp timeout "$DEADLINE_S" srun --mpi=pmix -n 2 -N 1 --overcommit \
    bin/pinmx-run --mpj io.pinmx.mpj.npb.IntegerSort S >"$dir/out-mpj" 2>"$dir/err-mpj"
  judge_lines "slurm pmix MPJ" $? "$dir/out-mpj" "$dir/err-mpj" "$dir/home" \
    '^ Verification += +SUCCESSFUL$' '^ Total processes += +2$'
}

# Slurm across two "nodes" of one kernel: a network namespace each, joined by a veth pair. slurmd runs in each
# through nsenter (ip netns exec would remount /sys, hiding the cgroup tree slurmd needs); both nodes take the same
# SlurmdPort in their own namespace and keep spool and TmpFS apart by node name (%n).
run_slurm_namespaces() {
  if [ "$(id -u)" -ne 0 ]; then
    result "slurm netns" skipped "needs root for network namespaces and the Slurm daemons"
    return
  fi
  pinmx_need_packages slurm-wlm munge libpmix-dev iproute2
  local dir=$work/slurm-netns host base subnet a=psl$$a b=psl$$b node ns state before
  host=$(hostname -s)
  base=$((20000 + RANDOM % 20000))
  subnet=10.233.$((RANDOM % 250))
  if ! { ip netns add "$a" && namespaces+=("$a") && ip netns add "$b" && namespaces+=("$b") &&
    ip link add "$a" netns "$a" type veth peer name "$b" netns "$b" &&
    ip -n "$a" addr add "$subnet.1/24" dev "$a" && ip -n "$b" addr add "$subnet.2/24" dev "$b" &&
    ip -n "$a" link set lo up && ip -n "$b" link set lo up && ip -n "$a" link set "$a" up &&
    ip -n "$b" link set "$b" up; }; then
    result "slurm netns" failed "could not make namespaces $a and $b joined by a veth pair"
    remove_namespaces
    return
  fi
  mkdir -p "$dir/state" "$dir/spool/pinmxa" "$dir/spool/pinmxb" "$dir/tmp/pinmxa" "$dir/tmp/pinmxb" \
    "$dir/home-pinmxa" "$dir/home-pinmxb" "$dir/shm-pinmxa" "$dir/shm-pinmxb"
  start_munge "$dir"
  cat >"$dir/slurm.conf" <<EOF
ClusterName=pinmxnetns
SlurmctldHost=$host($subnet.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
$(slurm_shared_settings "$dir")
SlurmdSpoolDir=$dir/spool/%n
TmpFS=$dir/tmp/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
NodeName=pinmxa NodeAddr=$subnet.1 CPUs=$(nproc) State=UNKNOWN
NodeName=pinmxb NodeAddr=$subnet.2 CPUs=$(nproc) State=UNKNOWN
PartitionName=pinmx Nodes=pinmxa,pinmxb Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
EOF
  export SLURM_CONF=$dir/slurm.conf
  for _ in $(seq 100); do [ -S "$dir/munge.socket" ] && break; sleep 0.1; done
  nsenter --net="/run/netns/$a" slurmctld -D -f "$SLURM_CONF" 2>>"$dir/slurmctld.log" &
  daemons+=($!)
  for node in pinmxa pinmxb; do
    [ "$node" = pinmxa ] && ns=$a || ns=$b
    nsenter --net="/run/netns/$ns" slurmd -D -N "$node" -f "$SLURM_CONF" 2>>"$dir/slurmd-$node.log" &
    daemons+=($!)
  done
  local in_a=(nsenter --net="/run/netns/$a")
  for _ in $(seq 300); do
    state=$("${in_a[@]}" sinfo -h -N -o %T 2>/dev/null | sort -u | tr '\n' ' ')
    [ "$state" = "idle " ] && break
    sleep 0.1
  done
  if [ "$state" != "idle " ]; then
    result "slurm netns" failed "nodes not idle after 30 s (states '$state'); slurmctld.log: $(tail -n 3 "$dir/slurmctld.log" | tr '\n' ' ')"
  else
    # Each node's ranks get that node's HOME and shared-memory directory, as on hosts that share neither.
    local per_node=(bash -c 'export HOME=$0/home-$SLURMD_NODENAME PINMX_SHM_DIR=$0/shm-$SLURMD_NODENAME \
      PINMX_RMA_DIR=$0/shm-$SLURMD_NODENAME; exec "$@"' "$dir")
    local srun=("${in_a[@]}" timeout "$DEADLINE_S" srun --mpi=pmix -N 2 -n 2 --overcommit)
    started=$SECONDS
    "${srun[@]}" "${per_node[@]}" bin/pinmx-run io.pinmx.job.example.RankRing >"$dir/out-ring" 2>"$dir/err-ring"
    judge_netns "slurm netns RankRing" $? "$dir" "$dir/out-ring" "$dir/err-ring" 0 \
      '^rank 0 of 2 got 1 from rank 1$' '^rank 1 of 2 got 0 from rank 0$'
    started=$SECONDS
    before=$(ip netns exec "$b" cat "/sys/class/net/$b/statistics/rx_bytes")
    "${srun[@]}" "${per_node[@]}" "${pingpong[@]}" >"$dir/out-pingpong" 2>"$dir/err-pingpong"
    # rank 0's timed payload to rank 1 alone: 5 loops of 50 repetitions of every size from 0 to 1024 B
    judge_netns "slurm netns PingPong" $? "$dir" "$dir/out-pingpong" "$dir/err-pingpong" \
      $(($(ip netns exec "$b" cat "/sys/class/net/$b/statistics/rx_bytes") - before - 5 * 50 * 2047)) \
      '^ +1024 +50 +[0-9.]+ +[0-9.]+ *$' "^# progress: pinmx: user driver \(UDP on $subnet\.[12] "
  fi
  stop_daemons
  remove_namespaces
  unset SLURM_CONF
}

# Judges a run across the namespaces: judge_lines' checks, nothing under the second node's HOME either, and the
# veth's surplus (the bytes it carried beyond the run's payload; negative when it carried less) at least 0.
judge_netns() { # launcher status dir out err surplus pattern...
  local name=$1 status=$2 dir=$3 out=$4 err=$5 surplus=$6
  shift 6
  if [ -n "$(ls -A "$dir/home-pinmxb/.pinmx" 2>/dev/null)" ]; then
    result "$name" failed "bootstrap files left in $dir/home-pinmxb/.pinmx: $(ls "$dir/home-pinmxb/.pinmx" | tr '\n' ' ')"
  elif [ "$status" -eq 0 ] && [ "$surplus" -lt 0 ]; then
    result "$name" failed "the veth carried $((-surplus)) B less than the payload: the ranks did not meet across it"
  else
    judge_lines "$name" "$status" "$out" "$err" "$dir/home-pinmxa" "$@"
  fi
}

run_open_mpi() {
  if ! command -v mpirun >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
      result "open mpi" skipped "no mpirun (apt-get install openmpi-bin)"
      return
    fi
    pinmx_need_packages openmpi-bin
  fi
  local dir=$work/ompi as_root=()
  mkdir -p "$dir/home"
  [ "$(id -u)" -eq 0 ] && as_root=(--allow-run-as-root)
  started=$SECONDS
  HOME=$dir/home timeout "$DEADLINE_S" mpirun "${as_root[@]}" --oversubscribe -np 2 -x HOME -x PINMX_CLASSPATH \
    "${pingpong[@]}" >"$dir/out" 2>"$dir/err"
  judge "open mpi" $? "$dir/out" "$dir/err" "$dir/home"
}

# The main job through bench-imb/run-series.sh: ./run-main.sh runs with its three baselines and the tally judges
# the ratios of its --json file (8 B measured; the other targets' sizes left out, so "absent" and not met).
run_series() {
  local dir=$work/series out
  started=$SECONDS
  if bench-imb/run-series.sh 0 >"$work/series-usage" 2>&1 || ! grep -q "the number of runs, is '0'" "$work/series-usage"; then
    result "run-series" failed "N = 0 was not refused naming it: $(tr '\n' ' ' <"$work/series-usage")"
    return
  fi
  if ! out=$(timeout "$DEADLINE_S" bench-imb/run-series.sh -o "$dir" 1 -msglog 3:3 -iter 20 -loops 1 2>&1); then
    result "run-series" failed "exit status $?: $(tail -n 5 <<<"$out" | tr '\n' ' ')"
  elif ! grep -qE '^8B-vs-aeron: met in [01] of 1 runs$' <<<"$out" || ! grep -q '^run 1 8B-vs-aeron (met|missed) worst=[0-9.]' -E <<<"$out" ||
    [ "$(grep -c 'absent worst=-$' <<<"$out")" -ne 3 ] || ! grep -q '"metric":"latency","bytes":8,"measured":"pinmx","baseline":"aeron","value":[0-9]' "$dir/run-1.json"; then
    result "run-series" failed "unexpected tally: $(tr '\n' ' ' <<<"$out")"
  else
    result "run-series" passed "$(grep '^8B-vs-aeron' <<<"$out") in $((SECONDS - started)) s"
  fi
}

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(slurm slurm-netns mpirun series)
for part in "${parts[@]}"; do
  case $part in
    slurm) run_slurm ;;
    slurm-netns) run_slurm_namespaces ;;
    mpirun) run_open_mpi ;;
    series) run_series ;;
    *) echo "launcher-tests.sh: unknown part '$part' (slurm, slurm-netns, mpirun, series)" >&2; exit 2 ;;
  esac
done
echo "launchers: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
