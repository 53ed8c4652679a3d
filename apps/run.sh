#!/usr/bin/env bash
# The application kernels' versions back to back in one run, each run's report printed, then one line per kernel
# and setting:
#   ratio time MG S np2 host one-sided/message-passing = X   (rma's shared-memory tier against MPJ on pinmx's device)
#   ratio time MG S np2 host one-sided/niodev = X            (against MPJ on its own TCP device)
#   ratio time MG S np2 veth one-sided/message-passing = X   (one rank per network namespace across a veth pair)
#   ratio time MG S np2 veth one-sided/niodev = X            (and message-passing/niodev: both MPJ devices)
#   ratio time SpMV powerlaw 5000 np2 host aggregated/per-element = X   (and vector/per-element; fetch time too)
#   ratio time SRUMMA 1024 np2 veth one-sided/message-passing = X       (SRUMMA over rma against SUMMA over MPJ)
#   hidden SRUMMA 1024 np2 veth one-sided = F                         (the communication SRUMMA hid, 0 to 1)
# MG's one-sided version gets its ghost planes (MgOneSided CLASS get); --mg-puts also runs it with puts across the
# veth (MgOneSided CLASS put: "one-sided puts/message-passing", "one-sided/one-sided puts").
# X below 1: the first version took less time. A run that fails its verification stops the script (status 1).
# The plots (one PNG per kernel: each version's time in each setting, io.pinmx.apps.plot.TimesPlot) go to
# --plots DIR (default apps/target/plots), with times.tsv, the times they show.
#
#   apps/run.sh [--class S|W|A] [--np "2 4"] [--settings "host udp veth"] [--kernels "mg spmv srumma"]
#               [--spmv "stencil27 24,powerlaw 5000"] [--spmv-iterations 5] [--srumma "1024"] [--plots DIR]
#               [--mg-puts]
#
# host: every rank on this host (rma's shared-memory tier). udp: every rank on this host, rma through the driver
# (PINMX_RMA_SHARED_MEMORY=0: UDP frames; MPJ runs are the host ones). veth: 2 ranks, each in its own network
# namespace joined by a veth pair (needs root and iproute2; PINMX_VETH_CPUS="0 1" binds each rank's process to a
# CPU), rma through the driver, MPJ on pinmx over UDP and MPJ on niodev (NiodevJob in the first namespace starts
# each rank through a prefix: `ip netns exec` into its namespace, `taskset` onto its CPU). With
# PINMX_VETH_DRIVER=kernel both pinmx versions run on pinmx.ko instead (inside the VM: kmod/vm/run-tests.sh --cmd).
set -euo pipefail

cls=S nps="2 4" settings="host" kernels="mg spmv srumma" spmv_matrices="stencil27 24,powerlaw 5000" spmv_iterations=5
srumma_orders=1024 plots= mg_puts=0
while [ $# -gt 0 ]; do
  case "$1" in
    --class) [ $# -ge 2 ] || { echo "run.sh: --class needs S, W or A" >&2; exit 2; }; cls=$2; shift 2 ;;
    --np) [ $# -ge 2 ] || { echo "run.sh: --np needs a list of rank counts" >&2; exit 2; }; nps=$2; shift 2 ;;
    --settings) [ $# -ge 2 ] || { echo "run.sh: --settings needs host, udp and/or veth" >&2; exit 2; }; settings=$2; shift 2 ;;
    --kernels) [ $# -ge 2 ] || { echo "run.sh: --kernels needs mg, spmv and/or srumma" >&2; exit 2; }; kernels=$2; shift 2 ;;
    --spmv) [ $# -ge 2 ] || { echo "run.sh: --spmv needs MATRIX SIZE[,MATRIX SIZE...]" >&2; exit 2; }; spmv_matrices=$2; shift 2 ;;
    --spmv-iterations) [ $# -ge 2 ] || { echo "run.sh: --spmv-iterations needs a number" >&2; exit 2; }; spmv_iterations=$2; shift 2 ;;
    --srumma) [ $# -ge 2 ] || { echo "run.sh: --srumma needs matrix orders" >&2; exit 2; }; srumma_orders=$2; shift 2 ;;
    --mg-puts) mg_puts=1; shift ;;
    --plots) [ $# -ge 2 ] || { echo "run.sh: --plots needs a directory" >&2; exit 2; }; plots=$2; shift 2 ;;
    *) echo "usage: run.sh [--class S|W|A] [--np \"2 4\"] [--settings \"host udp veth\"] [--kernels \"mg spmv srumma\"] [--spmv \"MATRIX SIZE,...\"] [--spmv-iterations N] [--srumma \"ORDER ...\"] [--plots DIR] [--mg-puts]" >&2; exit 2 ;;
  esac
done
case "$cls" in S|W|A) ;; *) echo "run.sh: class '$cls' is not one of S, W, A" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
plots=$(realpath -m "${plots:-$root/apps/target/plots}")
cd "$root"
source scripts/lib.sh
pinmx_use_jdk
pinmx_need_mpj
export MPJ_HOME=${MPJ_HOME:-$PINMX_MPJ_HOME}
cp=$(pinmx_classpath apps)
read -ra flags <<<"$(pinmx_jvm_flags)"
out=$(mktemp -d "${TMPDIR:-/tmp}/apps-run.XXXXXX")
netns=()
cleanup() {
  local ns
  for ns in "${netns[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  rm -rf "$out"
}
trap cleanup EXIT

mg_one_sided=io.pinmx.apps.mg.MgOneSided
mg_message_passing=io.pinmx.apps.mg.MgMessagePassing
srumma_one_sided=io.pinmx.apps.matmul.SrummaOneSided
summa_message_passing=io.pinmx.apps.matmul.SummaMessagePassing

verified() { grep -q "Verification *= *SUCCESSFUL" "$1" && ! grep -q "Verification *= *UNSUCCESSFUL" "$1"; }
# report NAME COMMAND...: runs a version, shows its report, keeps it in $out/NAME; stops the script if it failed.
report() {
  local name=$1; shift
  echo "== $name"
  if ! "$@" >"$out/$name" 2>"$out/$name.err"; then
    cat "$out/$name" "$out/$name.err" >&2
    echo "run.sh: $name failed" >&2
    exit 1
  fi
  cat "$out/$name"
  verified "$out/$name" || { echo "run.sh: $name did not verify" >&2; exit 1; }
}
seconds() { awk -F= '/Time in seconds/ { gsub(/ /, "", $2); print $2 }' "$out/$1"; }
# plotted KERNEL SETTING VERSION SECONDS: one bar of the plots.
plotted() { printf '%s\t%s\t%s\t%s\n' "$@" >>"$out/times.tsv"; }
ratio() { awk -v n="$1" -v a="$(seconds "$2")" -v b="$(seconds "$3")" 'BEGIN { printf "ratio time %s = %.3g\n", n, a / b }'; }

# The seconds of get mode $2 in SpMV report file $1 (field: Time in seconds, or Fetch seconds).
spmv_seconds() { awk -v mode="$2" -v field="$3" -F= '/^ Gets/ { gsub(/ /, "", $2); m = $2 } index($0, " " field) == 1 && m == mode { gsub(/ /, "", $2); print $2 }' "$out/$1"; }
spmv_ratios() {
  local name=$1 label=$2 mode field
  for mode in aggregated vector; do
    for field in "Time in seconds" "Fetch seconds"; do
      awk -v n="$label $mode/per-element$([ "$field" = "Fetch seconds" ] && echo " fetch")" \
        -v a="$(spmv_seconds "$name" "$mode" "$field")" -v b="$(spmv_seconds "$name" per-element "$field")" \
        'BEGIN { printf "ratio time %s = %.3g\n", n, a / b }'
    done
  done
}
spmv_plotted() {
  local mode
  for mode in per-element aggregated vector; do
    plotted "$2" "$3" "$mode" "$(spmv_seconds "$1" "$mode" "Time in seconds")"
  done
}
# hidden LABEL FILE: the fraction of the communication the SRUMMA run in FILE hid behind its computing.
hidden() { awk -v n="$1" -F= '/^ Hidden fraction/ { gsub(/ /, "", $2); print "hidden " n " = " $2 }' "$out/$2"; }
has() { [[ " $1 " == *" $2 "* ]]; }

ratios=()
for np in $nps; do
  if has "$kernels" spmv; then
    IFS=, read -ra matrices <<<"$spmv_matrices"
    for matrix in "${matrices[@]}"; do
      read -r kind size <<<"$matrix"
      for setting in host udp; do
        has "$settings" $setting || continue
        shared=1; [ $setting = udp ] && shared=0
        name="spmv-$kind-$size-np$np-$setting"
        report "$name" env PINMX_CLASSPATH="$cp" PINMX_RMA_SHARED_MEMORY=$shared bin/pinmx-run -np "$np" \
          io.pinmx.apps.spmv.SpmvOneSided "$kind" "$size" all "$spmv_iterations"
        mapfile -t -O "${#ratios[@]}" ratios < <(spmv_ratios "$name" "SpMV $kind $size np$np $setting")
        spmv_plotted "$name" "SpMV $kind $size" "np$np $setting"
      done
    done
  fi
  if has "$kernels" srumma; then
    for order in $srumma_orders; do
      base="srumma-$order-np$np"
      label="SRUMMA $order np$np"
      if has "$settings" udp; then
        report "$base-udp-one-sided" env PINMX_CLASSPATH="$cp" PINMX_RMA_SHARED_MEMORY=0 bin/pinmx-run -np "$np" \
          $srumma_one_sided "$order"
        ratios+=("$(hidden "$label udp one-sided" "$base-udp-one-sided")")
        plotted "SRUMMA $order" "np$np udp" "one-sided" "$(seconds "$base-udp-one-sided")"
      fi
      has "$settings" host || continue
      report "$base-host-one-sided" env PINMX_CLASSPATH="$cp" bin/pinmx-run -np "$np" $srumma_one_sided "$order"
      report "$base-host-mxdev" env PINMX_CLASSPATH="$cp" bin/pinmx-run -np "$np" --mpj $summa_message_passing "$order"
      report "$base-host-niodev" "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$cp" io.pinmx.mpj.niodev.NiodevJob \
        -np "$np" $summa_message_passing "$order"
      plotted "SRUMMA $order" "np$np host" "one-sided" "$(seconds "$base-host-one-sided")"
      plotted "SRUMMA $order" "np$np host" "MPJ pinmx" "$(seconds "$base-host-mxdev")"
      plotted "SRUMMA $order" "np$np host" "MPJ niodev" "$(seconds "$base-host-niodev")"
      ratios+=("$(ratio "$label host one-sided/message-passing" "$base-host-one-sided" "$base-host-mxdev")")
      ratios+=("$(ratio "$label host one-sided/niodev" "$base-host-one-sided" "$base-host-niodev")")
      if has "$settings" udp; then
        ratios+=("$(ratio "$label udp one-sided/message-passing" "$base-udp-one-sided" "$base-host-mxdev")")
      fi
    done
  fi
  has "$kernels" mg || continue
  if has "$settings" udp; then
    report "mg-$cls-np$np-udp-one-sided" env PINMX_CLASSPATH="$cp" PINMX_RMA_SHARED_MEMORY=0 bin/pinmx-run -np "$np" \
      $mg_one_sided "$cls"
    plotted "MG $cls" "np$np udp" "one-sided" "$(seconds "mg-$cls-np$np-udp-one-sided")"
  fi
  if has "$settings" host; then
    report "mg-$cls-np$np-host-one-sided" env PINMX_CLASSPATH="$cp" bin/pinmx-run -np "$np" $mg_one_sided "$cls"
    report "mg-$cls-np$np-host-mxdev" \
      env PINMX_CLASSPATH="$cp" bin/pinmx-run -np "$np" --mpj $mg_message_passing "$cls"
    report "mg-$cls-np$np-host-niodev" \
      "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$cp" io.pinmx.mpj.niodev.NiodevJob -np "$np" \
      $mg_message_passing "$cls"
    plotted "MG $cls" "np$np host" "one-sided" "$(seconds "mg-$cls-np$np-host-one-sided")"
    plotted "MG $cls" "np$np host" "MPJ pinmx" "$(seconds "mg-$cls-np$np-host-mxdev")"
    plotted "MG $cls" "np$np host" "MPJ niodev" "$(seconds "mg-$cls-np$np-host-niodev")"
    ratios+=("$(ratio "MG $cls np$np host one-sided/message-passing" "mg-$cls-np$np-host-one-sided" "mg-$cls-np$np-host-mxdev")")
    ratios+=("$(ratio "MG $cls np$np host one-sided/niodev" "mg-$cls-np$np-host-one-sided" "mg-$cls-np$np-host-niodev")")
    if has "$settings" udp; then
      ratios+=("$(ratio "MG $cls np$np udp one-sided/message-passing" "mg-$cls-np$np-udp-one-sided" "mg-$cls-np$np-host-mxdev")")
    fi
  fi
done
if has "$settings" veth; then
  ns0=apps-$$-0 ns1=apps-$$-1
  pinmx_veth_namespaces "$ns0" "$ns1" 10.231.0.1 10.231.0.2
  netns=("$ns0" "$ns1")
  veth() {
    local name=$1; shift
    mkdir -p "$out/$name.d"
    echo "== $name"
    pinmx_veth_ranks "$ns0" "$ns1" 10.231.0.1 10.231.0.2 "$out/$name.d" "apps-$name" PINMX_CLASSPATH="$cp" \
      PINMX_RMA_SHARED_MEMORY=0 -- "$@" || { echo "run.sh: $name failed" >&2; exit 1; }
    cp "$out/$name.d/out-0" "$out/$name"
    cat "$out/$name"
    verified "$out/$name" || { echo "run.sh: $name did not verify" >&2; exit 1; }
  }
  # veth_niodev NAME MAIN_CLASS ARGS...: MPJ's niodev, rank i in namespace i, its port server on rank 0's address.
  veth_niodev() {
    local name=$1 cpus=(${PINMX_VETH_CPUS:-}) prefixes=(--rank-prefix 1 "ip netns exec $ns1"); shift
    [ ${#cpus[@]} -eq 2 ] &&
      prefixes=(--rank-prefix 0 "taskset -c ${cpus[0]}" --rank-prefix 1 "taskset -c ${cpus[1]} ip netns exec $ns1")
    report "$name" ip netns exec "$ns0" "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$cp" io.pinmx.mpj.niodev.NiodevJob \
      --port-server 10.231.0.1 "${prefixes[@]}" -np 2 "$@"
  }
  if has "$kernels" spmv; then
    IFS=, read -ra matrices <<<"$spmv_matrices"
    for matrix in "${matrices[@]}"; do
      read -r kind size <<<"$matrix"
      veth "spmv-$kind-$size-np2-veth" io.pinmx.apps.spmv.SpmvOneSided "$kind" "$size" all "$spmv_iterations"
      mapfile -t -O "${#ratios[@]}" ratios < <(spmv_ratios "spmv-$kind-$size-np2-veth" "SpMV $kind $size np2 veth")
      spmv_plotted "spmv-$kind-$size-np2-veth" "SpMV $kind $size" "np2 veth"
    done
  fi
  if has "$kernels" srumma; then
    for order in $srumma_orders; do
      veth "srumma-$order-np2-veth-one-sided" $srumma_one_sided "$order"
      veth "srumma-$order-np2-veth-mxdev" --mpj $summa_message_passing "$order"
      plotted "SRUMMA $order" "np2 veth" "one-sided" "$(seconds "srumma-$order-np2-veth-one-sided")"
      plotted "SRUMMA $order" "np2 veth" "MPJ pinmx" "$(seconds "srumma-$order-np2-veth-mxdev")"
      ratios+=("$(ratio "SRUMMA $order np2 veth one-sided/message-passing" "srumma-$order-np2-veth-one-sided" \
        "srumma-$order-np2-veth-mxdev")")
      ratios+=("$(hidden "SRUMMA $order np2 veth one-sided" "srumma-$order-np2-veth-one-sided")")
    done
  fi
  if has "$kernels" mg; then
    veth "mg-$cls-np2-veth-one-sided" $mg_one_sided "$cls" get
    if [ "$mg_puts" = 1 ]; then
      veth "mg-$cls-np2-veth-one-sided-puts" $mg_one_sided "$cls" put
    fi
    veth "mg-$cls-np2-veth-mxdev" --mpj $mg_message_passing "$cls"
    veth_niodev "mg-$cls-np2-veth-niodev" $mg_message_passing "$cls"
    plotted "MG $cls" "np2 veth" "one-sided" "$(seconds "mg-$cls-np2-veth-one-sided")"
    plotted "MG $cls" "np2 veth" "MPJ pinmx" "$(seconds "mg-$cls-np2-veth-mxdev")"
    plotted "MG $cls" "np2 veth" "MPJ niodev" "$(seconds "mg-$cls-np2-veth-niodev")"
    ratios+=("$(ratio "MG $cls np2 veth one-sided/message-passing" "mg-$cls-np2-veth-one-sided" "mg-$cls-np2-veth-mxdev")")
    ratios+=("$(ratio "MG $cls np2 veth one-sided/niodev" "mg-$cls-np2-veth-one-sided" "mg-$cls-np2-veth-niodev")")
    if [ "$mg_puts" = 1 ]; then
      plotted "MG $cls" "np2 veth" "one-sided puts" "$(seconds "mg-$cls-np2-veth-one-sided-puts")"
      ratios+=("$(ratio "MG $cls np2 veth one-sided puts/message-passing" "mg-$cls-np2-veth-one-sided-puts" \
        "mg-$cls-np2-veth-mxdev")")
      ratios+=("$(ratio "MG $cls np2 veth one-sided/one-sided puts" "mg-$cls-np2-veth-one-sided" \
        "mg-$cls-np2-veth-one-sided-puts")")
    fi
    ratios+=("$(ratio "MG $cls np2 veth message-passing/niodev" "mg-$cls-np2-veth-mxdev" "mg-$cls-np2-veth-niodev")")
  fi
fi

echo "== ratios"
printf '%s\n' "${ratios[@]}"
if [ -s "$out/times.tsv" ]; then
  echo "== plots"
  mkdir -p "$plots"
  cp "$out/times.tsv" "$plots/times.tsv"
  "$JAVA_HOME/bin/java" -cp "$cp" io.pinmx.apps.plot.TimesPlot "$plots/times.tsv" "$plots"
fi
