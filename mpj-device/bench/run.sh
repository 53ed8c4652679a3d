#!/usr/bin/env bash
# MPJ benchmarks, pinmx's device against MPJ Express's own niodev in the same run, same host, same programs,
# same JVM flags: IMB PingPong (io.pinmx.mpj.bench.MpjPingPong) and NPB IS (io.pinmx.mpj.npb.IntegerSort), 2 ranks
# each, niodev first. Prints both outputs, then the ratios:
#   ratio latency 8 B pinmx/niodev = X          (target <= 0.1)
#   ratio bandwidth 4194304 B pinmx/niodev = X  (target >= 2.5; IMB's mean over the repetitions)
#   ratio bandwidth 4194304 B median pinmx/niodev = X  (the same from each device's median repetition)
#   ratio Mop/s IS A pinmx/niodev = X           (target >= 1.2)
# and, run alone, how late a rank blocked in Recv wakes for a partner that computed first (io.pinmx.mpj.bench.MpjWakeup):
#   ratio wake-up median pinmx/niodev = X
# NPB_TIMERS=1 makes IS print its per-stage timers (computation and each collective) on both devices.
# collectives times each 35 KB Reduce and Scatter (then Barrier) of the Java Grande pattern one by one
# (io.pinmx.mpj.bench.MpjCollectiveTimes, 3 rounds of 2000), each 8 MiB-per-rank Alltoallv (IS's key exchange, 3
# rounds of 30) and each rank's 8 MiB message to itself (Alltoallv's own part, 3 rounds of 100), and prints the last
# round's ratios:
#   ratio collectives reduce mean pinmx/niodev = X   (and median; lower: pinmx faster)
# eager runs, per eager limit of --limits (PINMX_MPJ_EAGER_MAX_BYTES; default 32, 64, 128 and 256 KiB), PingPong of 32
# KiB to 256 KiB (-reps, default 500) and the 35 KB Reduce and Scatter of collectives (2 rounds of 1000) on pinmx,
# beside one niodev run of each, on --setting host (one host: shared memory) or veth (each rank in its own network
# namespace across a veth pair, UDP; needs root; PINMX_VETH_CPUS as apps/run.sh), then per limit:
#   ratio eager 131072 host pingpong 65536 B median pinmx/niodev = X    (time: lower, pinmx faster)
#   ratio eager 131072 host reduce median pinmx/niodev = X              (and mean; scatter likewise)
# jgf runs the Java Grande MPJ benchmarks (io.pinmx.mpj.jgf): section 1 with each timed run lasting at least
# --target-s seconds (default 1; the suite's is 10) and section 2 at --size (default A), then one ratio of
# operations per second per benchmark and size (higher: pinmx faster):
#   ratio jgf Section1:Reduce:Double 4472 pinmx/niodev = X
# --section 1 or 2 runs only that section (a whole jgf run can outlast a quiet hold); --benchmarks "NAME ..." only
# those of it (section 1: PingPong, Barrier, Bcast, Alltoall, Gather, Scatter, Reduce; section 2: Crypt, LUFact,
# SOR, Series, SparseMatmult).
#
#   mpj-device/bench/run.sh [pingpong|is|all|wakeup|collectives|eager|jgf] [--class S|W|A|B] [-msglog a:b] [-reps N]
#                           [--limits "BYTES ..."] [--setting host|veth] [--target-s S] [--size A|B]
#                           [--section 1|2] [--benchmarks "NAME ..."]
# -reps N: PingPong runs at least N timed repetitions per size (IMB's rule gives 4 MiB 10).
#
# niodev's ranks start through io.pinmx.mpj.niodev.NiodevJob (MPJ's port server, no daemons); pinmx's through
# bin/pinmx-run --mpj (device progress: PINMX_MPJ_PROGRESS, default caller; driver: PINMX_DRIVER, default user).
# PINMX_AOT_CACHE (on or a directory; default off) starts both devices' ranks from JDK AOT caches, one per device's
# launch configuration and program; a missing one is first made by a training run of the same program (unmeasured).
# PINMX_BIND (default core) binds each rank's main thread to its own CPU on both devices; PINMX_BIND=none binds
# neither. Unbound, the two ranks' threads sometimes share a CPU for a whole run (small-message latency then
# several times higher); bound runs are erratic only when other jobs' busy-polling ranks hold the same CPUs. pinmx's device binds only with caller progress (its waits poll), so PINMX_MPJ_PROGRESS=thread leaves
# it unbound.
set -euo pipefail

what=all cls=A msglog=0:22 reps="" target_s=1 jgf_size=A limits="32768 65536 131072 262144" setting=host
sections="1 2" benchmarks=""
while [ $# -gt 0 ]; do
  case "$1" in
    pingpong|is|all|wakeup|collectives|eager|jgf) what=$1; shift ;;
    --limits) [ $# -ge 2 ] || { echo "run.sh: --limits needs byte counts" >&2; exit 2; }; limits=$2; shift 2 ;;
    --setting) [ $# -ge 2 ] && [[ "$2" =~ ^(host|veth)$ ]] || { echo "run.sh: --setting needs host or veth" >&2; exit 2; }
      setting=$2; shift 2 ;;
    --target-s) [ $# -ge 2 ] || { echo "run.sh: --target-s needs seconds" >&2; exit 2; }; target_s=$2; shift 2 ;;
    --size) [ $# -ge 2 ] || { echo "run.sh: --size needs A or B" >&2; exit 2; }; jgf_size=$2; shift 2 ;;
    --section) [ $# -ge 2 ] && [[ "$2" =~ ^[12]$ ]] || { echo "run.sh: --section needs 1 or 2" >&2; exit 2; }
      sections=$2; shift 2 ;;
    --benchmarks) [ $# -ge 2 ] || { echo "run.sh: --benchmarks needs names" >&2; exit 2; }; benchmarks=$2; shift 2 ;;
    --class) [ $# -ge 2 ] || { echo "run.sh: --class needs S, W, A or B" >&2; exit 2; }; cls=$2; shift 2 ;;
    -msglog) [ $# -ge 2 ] || { echo "run.sh: -msglog needs a:b" >&2; exit 2; }; msglog=$2; shift 2 ;;
    -reps) [ $# -ge 2 ] || { echo "run.sh: -reps needs a number" >&2; exit 2; }; reps=$2; shift 2 ;;
    *) echo "usage: run.sh [pingpong|is|all|wakeup|collectives|eager|jgf] [--class S|W|A|B] [-msglog a:b] [-reps N] [--limits \"BYTES ...\"] [--setting host|veth] [--target-s S] [--size A|B] [--section 1|2] [--benchmarks \"NAME ...\"]" >&2
       exit 2 ;;
  esac
done

root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
source "$root/scripts/lib.sh"
pinmx_use_jdk
pinmx_need_mpj
export MPJ_HOME=${MPJ_HOME:-$PINMX_MPJ_HOME}
cp=$(cd "$root" && pinmx_classpath mpj-device):$PINMX_MPJ_JARS
read -ra flags <<<"$(pinmx_jvm_flags)"
out=$(mktemp -d "${TMPDIR:-/tmp}/mpj-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

export PINMX_BIND=${PINMX_BIND:-core}
pinmx_bound="PINMX_BIND=$PINMX_BIND"
[ "${PINMX_MPJ_PROGRESS:-caller}" = caller ] || pinmx_bound="not bound (thread progress blocks)"

# niodev's 2 ranks of one MPJ program, extra arguments of NiodevJob first (up to a --); rank 0's output to $1.
niodev() {
  local to=$1 job=(); shift
  while [ "$1" != "--" ]; do job+=("$1"); shift; done
  shift
  "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$cp" io.pinmx.mpj.niodev.NiodevJob "${job[@]}" -np 2 "$@" 2>"$to.err" \
    >"$to" || { cat "$to.err" >&2; exit 1; }
}

# Runs one MPJ program on 2 ranks of niodev, then of pinmx; rank 0's output to $out/<name>.<device>. With AOT caches
# (PINMX_AOT_CACHE, scripts/lib.sh) each device's ranks start from the cache of their own launch configuration; where
# it is missing, a training run of the same program (not shown, not measured) makes it first.
both() {
  local name=$1 niodev_cache pinmx_cache niodev_aot=() rank training
  shift
  niodev_cache=$(pinmx_aot_cache "io.pinmx.mpj.niodev.BoundRank $1" "$cp" "${flags[@]}")
  pinmx_cache=$(pinmx_aot_cache "$1" "$cp:$PINMX_MPJ_JARS" "${flags[@]}")
  if [ -n "$niodev_cache" ] && [ ! -s "$niodev_cache" ]; then
    training=$(pinmx_aot_rank_flags "$niodev_cache" 0 "$out/niodev.training")
    if [ -n "$training" ]; then
      echo "== training run of $name on niodev for its AOT cache $niodev_cache"
      niodev "$out/$name.niodev-training" --rank-jvm-options 0 "$training" -- "$@"
      pinmx_aot_create "$niodev_cache" "$out/niodev.training" "$cp" "${flags[@]}"
    fi
  fi
  if [ -n "$pinmx_cache" ] && [ ! -s "$pinmx_cache" ]; then
    echo "== training run of $name on pinmx for its AOT cache $pinmx_cache"
    PINMX_CLASSPATH=$cp "$root/bin/pinmx-run" -np 2 --mpj "$@" >"$out/$name.pinmx-training" 2>&1 ||
      { cat "$out/$name.pinmx-training" >&2; exit 1; }
  fi
  for rank in 0 1; do
    [ -s "$niodev_cache" ] && niodev_aot+=(--rank-jvm-options "$rank" "$(pinmx_aot_rank_flags "$niodev_cache" "$rank" "")")
  done
  echo "== $name on niodev (MPJ Express's TCP device), 2 ranks, PINMX_BIND=$PINMX_BIND, AOT cache ${niodev_cache:-off}"
  niodev "$out/$name.niodev" "${niodev_aot[@]}" -- "$@"
  cat "$out/$name.niodev"
  echo "== $name on pinmx (mxdev over the pinmx endpoint, driver ${PINMX_DRIVER:-user}, progress ${PINMX_MPJ_PROGRESS:-caller}), 2 ranks, $pinmx_bound, AOT cache ${pinmx_cache:-off}"
  PINMX_CLASSPATH=$cp "$root/bin/pinmx-run" -np 2 --mpj "$@" 2>"$out/$name.pinmx.err" \
    | tee "$out/$name.pinmx" || { cat "$out/$name.pinmx.err" >&2; exit 1; }
}

# ratio NAME VALUE_PINMX VALUE_NIODEV: two significant digits, as bench-imb prints its ratios.
ratio() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "ratio %s pinmx/niodev = %.2g\n", n, a / b }'; }
# column BYTES COLUMN FILE: a PingPong table value (3 mean t[usec], 4 Mbytes/sec, 5 median t[usec]).
column() { awk -v b="$1" -v c="$2" '$1 == b && NF == 5 && $1 ~ /^[0-9]+$/ { print $c }' "$3"; }

if [ "$what" = wakeup ]; then
  both wakeup io.pinmx.mpj.bench.MpjWakeup
  median() { awk '/^wake-up us:/ { print $4 }' "$1"; }
  echo "== ratios"
  ratio "wake-up median" "$(median "$out/wakeup.pinmx")" "$(median "$out/wakeup.niodev")"
  exit 0
fi
if [ "$what" = collectives ]; then
  for op in reduce scatter; do
    both "$op" io.pinmx.mpj.bench.MpjCollectiveTimes -op "$op"
  done
  both alltoallv io.pinmx.mpj.bench.MpjCollectiveTimes -op alltoallv -doubles 1048576 -reps 30
  both self io.pinmx.mpj.bench.MpjCollectiveTimes -op self -doubles 1048576 -reps 100
  echo "== ratios"
  # last FILE FIELD: the last round's mean (field 10) or median (12), in us.
  last() { awk -v c="$2" '/ round [0-9]+:/ { v = $c } END { print v }' "$1"; }
  for op in reduce scatter alltoallv self; do
    ratio "collectives $op mean" "$(last "$out/$op.pinmx" 10)" "$(last "$out/$op.niodev" 10)"
    ratio "collectives $op median" "$(last "$out/$op.pinmx" 12)" "$(last "$out/$op.niodev" 12)"
  done
  exit 0
fi
if [ "$what" = eager ]; then
  # one NAME DEVICE [VAR=VALUE...] -- MAIN_CLASS ARGS...: one 2-rank run on the --setting path, rank 0's output to
  # $out/NAME, shown.
  if [ "$setting" = veth ]; then
    # veth ends are named after the namespaces: at most 15 characters.
    ns0=mpje$$-0 ns1=mpje$$-1
    trap 'ip netns del "$ns0" 2>/dev/null; ip netns del "$ns1" 2>/dev/null; rm -rf "$out"' EXIT
    pinmx_veth_namespaces "$ns0" "$ns1" 10.232.0.1 10.232.0.2
  fi
  one() {
    local name=$1 device=$2 vars=() cpus=(${PINMX_VETH_CPUS:-}) prefixes=(); shift 2
    while [ "$1" != "--" ]; do vars+=("$1"); shift; done
    shift
    echo "== $name ($device, $setting, ${vars[*]:-default limit}) $(uptime)"
    if [ "$device" = niodev ] && [ "$setting" = host ]; then
      "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$cp" io.pinmx.mpj.niodev.NiodevJob -np 2 "$@" >"$out/$name" \
        2>"$out/$name.err" || { cat "$out/$name.err" >&2; exit 1; }
    elif [ "$device" = niodev ]; then
      prefixes=(--rank-prefix 1 "ip netns exec $ns1")
      [ ${#cpus[@]} -eq 2 ] &&
        prefixes=(--rank-prefix 0 "taskset -c ${cpus[0]}" --rank-prefix 1 "taskset -c ${cpus[1]} ip netns exec $ns1")
      ip netns exec "$ns0" "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$cp" io.pinmx.mpj.niodev.NiodevJob \
        --port-server 10.232.0.1 "${prefixes[@]}" -np 2 "$@" >"$out/$name" 2>"$out/$name.err" ||
        { cat "$out/$name.err" >&2; exit 1; }
    elif [ "$setting" = host ]; then
      env "${vars[@]}" PINMX_CLASSPATH="$cp" "$root/bin/pinmx-run" -np 2 --mpj "$@" >"$out/$name" 2>"$out/$name.err" ||
        { cat "$out/$name.err" >&2; exit 1; }
    else
      mkdir -p "$out/$name.d"
      (cd "$root" && pinmx_veth_ranks "$ns0" "$ns1" 10.232.0.1 10.232.0.2 "$out/$name.d" "mpjeager-$$-$name" \
        PINMX_CLASSPATH="$cp" "${vars[@]}" -- --mpj "$@") || exit 1
      cp "$out/$name.d/out-0" "$out/$name"
    fi
    grep -v '^#' "$out/$name"
  }
  programs() {
    local tag=$1 device=$2; shift 2
    one "pingpong-$tag" "$device" "$@" -- io.pinmx.mpj.bench.MpjPingPong -msglog 15:18 -reps "${reps:-500}"
    for op in reduce scatter; do
      one "$op-$tag" "$device" "$@" -- io.pinmx.mpj.bench.MpjCollectiveTimes -op "$op" -reps 1000 -rounds 2
    done
  }
  programs niodev niodev
  for limit in $limits; do
    programs "$limit" pinmx PINMX_MPJ_EAGER_MAX_BYTES="$limit"
  done
  echo "== ratios ($setting; times: lower, pinmx faster)"
  last() { awk -v c="$2" '/ round [0-9]+:/ { v = $c } END { print v }' "$1"; }
  for limit in $limits; do
    for bytes in 32768 65536 131072 262144; do
      ratio "eager $limit $setting pingpong $bytes B median" "$(column $bytes 5 "$out/pingpong-$limit")" \
        "$(column $bytes 5 "$out/pingpong-niodev")"
    done
    for op in reduce scatter; do
      ratio "eager $limit $setting $op median" "$(last "$out/$op-$limit" 12)" "$(last "$out/$op-niodev" 12)"
      ratio "eager $limit $setting $op mean" "$(last "$out/$op-$limit" 10)" "$(last "$out/$op-niodev" 10)"
    done
  done
  exit 0
fi
if [ "$what" = jgf ]; then
  read -ra names <<<"$benchmarks"
  for section in $sections; do
    if [ "$section" = 1 ]; then
      both jgf1 io.pinmx.mpj.jgf.JgfSection1 --target-s "$target_s" "${names[@]}"
    else
      both jgf2 io.pinmx.mpj.jgf.JgfSection2 --size "$jgf_size" "${names[@]}"
      for d in niodev pinmx; do
        ! grep -q "validation FAILED" "$out/jgf2.$d" ||
          { echo "run.sh: a JGF section 2 kernel did not validate on $d" >&2; exit 1; }
      done
    fi
  done
  echo "== ratios"
  # Key: benchmark name and size; value: the number after the field that ends in /s.
  rates() { awk '/^Section[12]:/ { for (i = 2; i < NF; i++) if ($i ~ /\/s$/) { print $1, $3, $(i + 1); break } }' "$@"; }
  jgf_out() { for section in $sections; do echo "$out/jgf$section.$1"; done; }
  rates $(jgf_out niodev) >"$out/jgf.niodev"
  rates $(jgf_out pinmx) | while read -r name size rate; do
    base=$(awk -v n="$name" -v s="$size" '$1 == n && $2 == s { print $3 }' "$out/jgf.niodev")
    case "$rate$base" in *n/a*|"$rate") echo "ratio jgf $name $size pinmx/niodev = n/a" ;;
      *) ratio "jgf $name $size" "$rate" "$base" ;; esac
  done
  exit 0
fi
if [ "$what" != is ]; then
  both pingpong io.pinmx.mpj.bench.MpjPingPong -msglog "$msglog" ${reps:+-reps "$reps"}
fi
if [ "$what" != pingpong ]; then
  both is io.pinmx.mpj.npb.IntegerSort "$cls"
fi

echo "== ratios"
if [ "$what" != is ]; then
  for bytes in 8; do
    a=$(column $bytes 3 "$out/pingpong.pinmx") b=$(column $bytes 3 "$out/pingpong.niodev")
    [ -n "$a" ] && [ -n "$b" ] && ratio "latency $bytes B" "$a" "$b"
  done
  for bytes in 4194304; do
    a=$(column $bytes 4 "$out/pingpong.pinmx") b=$(column $bytes 4 "$out/pingpong.niodev")
    [ -n "$a" ] && [ -n "$b" ] && ratio "bandwidth $bytes B" "$a" "$b"
    # Bandwidth ratio of the median repetitions: niodev's time over pinmx's.
    a=$(column $bytes 5 "$out/pingpong.niodev") b=$(column $bytes 5 "$out/pingpong.pinmx")
    [ -n "$a" ] && [ -n "$b" ] && ratio "bandwidth $bytes B median" "$a" "$b"
  done
fi
if [ "$what" != pingpong ]; then
  mops() { awk '/Mop\/s total/ { print $NF }' "$1"; }
  for d in niodev pinmx; do
    grep -q "Verification *= *SUCCESSFUL" "$out/is.$d" || { echo "run.sh: NPB IS did not verify on $d" >&2; exit 1; }
  done
  ratio "Mop/s IS $cls" "$(mops "$out/is.pinmx")" "$(mops "$out/is.niodev")"
fi
