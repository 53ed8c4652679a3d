#!/usr/bin/env bash
# Start-up cost of a job's two control planes under one launcher, Open MPI's mpirun on this host: jobs of 2, 4, 8
# and 16 ranks of io.pinmx.job.example.AllPairs meeting through mpirun's PMIx server (pmix) or through a bootstrap
# file and rank 0's TCP star (file: PINMX_BOOTSTRAP=file:..., as without a PMIx server), the two paths alternated
# per size so that both see the same load. Prints per path and size the median and maximum over the ranks of
# first-message-ms (a rank's process start to its first message received: join, endpoint open, connects), the
# job's wall time from mpirun's start to its end, and the load average.
#
#   job/scripts/pmix-startup.sh [--ranks "2 4 8 16"] | tee job/results/pmix-startup-$(date -u +%F).txt
set -uo pipefail

ranks_list="2 4 8 16"
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks_list=$2; shift 2 ;;
    *) echo "usage: pmix-startup.sh [--ranks \"2 4 8 16\"]" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
source "$root/scripts/lib.sh"
pinmx_use_jdk
command -v mpirun >/dev/null || { echo "pmix-startup.sh: needs Open MPI's mpirun (apt-get install openmpi-bin)" >&2; exit 2; }
# Built (when its sources changed) before the clock starts, not inside the first job's wall time.
PINMX_CLASSPATH=$(cd "$root" && pinmx_classpath bench-imb) || exit 1
export PINMX_CLASSPATH
out=$(mktemp -d "${TMPDIR:-/tmp}/pmix-startup.XXXXXX")
trap 'rm -rf "$out"' EXIT
as_root=()
[ "$(id -u)" -ne 0 ] || as_root=(--allow-run-as-root)

# median and max of the numbers on stdin
stats() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- -"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[NR] }'; }

echo "# AllPairs (1024 B to every other rank) under mpirun --oversubscribe, user driver, $(nproc) cores, $(date -u '+%F %T UTC')"
echo "# first-message-ms: a rank's process start to its first message received; wall-s: mpirun's start to its end"
printf '%-5s %5s %12s %12s %8s  %s\n' path ranks first-ms-med first-ms-max wall-s "load (1 5 15 min) at start"
status=0
for np in $ranks_list; do
  for path in pmix file; do
    plane=()
    # An explicit bootstrap turns the PMIx exchange off (io.pinmx.job.Job.servedByPmix): the star it was without.
    [ "$path" = file ] && plane=(-x "PINMX_BOOTSTRAP=file:$out/bootstrap-$np" -x PINMX_BOOTSTRAP_HOST=127.0.0.1)
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    start=$(date +%s.%N)
    HOME=$out timeout 900 mpirun "${as_root[@]}" --oversubscribe -np "$np" -x HOME -x PINMX_CLASSPATH \
      -x PINMX_BOOTSTRAP_TIMEOUT_MS=600000 "${plane[@]}" "$root/bin/pinmx-run" io.pinmx.job.example.AllPairs \
      >"$out/out" 2>"$out/err"
    rc=$?
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    lines=$(grep -ho 'allpairs rank .*' "$out/out" "$out/err")
    got=$(grep -c . <<<"$lines")
    if [ "$rc" -ne 0 ] || [ "$got" -ne "$np" ]; then
      echo "# $path $np ranks failed (status $rc, $got of $np ranks reported); the end of its stderr:"
      tail -n 20 "$out/err" | sed 's/^/#   /'
      status=1
      continue
    fi
    read -r fm_med fm_max < <(sed -n 's/.*first-message-ms \([0-9]*\).*/\1/p' <<<"$lines" | stats)
    printf '%-5s %5d %12s %12s %8.1f  %s\n' "$path" "$np" "$fm_med" "$fm_max" "$wall" "$load"
  done
done
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
