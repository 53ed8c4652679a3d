#!/usr/bin/env bash
# Start-up time to the first message and resident memory per rank of io.pinmx.job.example.AllPairs, for jobs of
# 2, 4, 8, 16 and 32 local ranks on the user driver, over shared memory (shm) and over UDP (udp: PINMX_SAME_HOST=0).
# Prints, per transport and job size, the median and maximum over the ranks, the job's wall time and the load
# average; the figures come from the lines AllPairs prints.
#
#   job/scripts/many-ranks.sh [--ranks "2 4 8 16 32"] [shm] [udp]    (default: both transports)
#   job/scripts/many-ranks.sh | tee job/results/many-ranks-$(date -u +%F).txt
set -uo pipefail

ranks_list="2 4 8 16 32"
transports=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks_list=$2; shift 2 ;;
    shm|udp) transports+=("$1"); shift ;;
    *) echo "usage: many-ranks.sh [--ranks \"2 4 8\"] [shm] [udp]" >&2; exit 2 ;;
  esac
done
[ ${#transports[@]} -gt 0 ] || transports=(shm udp)
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
# Built (when its sources changed) before the clock starts, not inside the first job's wall time.
source "$root/scripts/lib.sh"
pinmx_use_jdk
PINMX_CLASSPATH=$(cd "$root" && pinmx_classpath bench-imb) || exit 1
export PINMX_CLASSPATH
out=$(mktemp -d "${TMPDIR:-/tmp}/many-ranks.XXXXXX")
trap 'rm -rf "$out"' EXIT

# median and max of the numbers on stdin
stats() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- -"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[NR] }'; }

echo "# AllPairs (1024 B to every other rank, every byte checked), user driver, $(nproc) cores, $(date -u '+%F %T UTC')"
echo "# first-message-ms: process start to its first message received; rss: VmRSS after the exchange"
printf '%-9s %5s %12s %12s %13s %13s %8s  %s\n' transport ranks first-ms-med first-ms-max rss-MiB-med rss-MiB-max wall-s "load (1 5 15 min) at start"
status=0
for transport in "${transports[@]}"; do
  same_host=1
  [ "$transport" = udp ] && same_host=0
  for np in $ranks_list; do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    start=$(date +%s.%N)
    PINMX_SAME_HOST=$same_host "$root/bin/pinmx-run" --timeout 300 -np "$np" io.pinmx.job.example.AllPairs \
      >"$out/out" 2>"$out/err"
    rc=$?
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    lines=$(grep -ho 'allpairs rank .*' "$out/out" "$out/err")
    got=$(grep -c . <<<"$lines")
    if [ "$rc" -ne 0 ] || [ "$got" -ne "$np" ]; then
      echo "# $transport $np ranks failed (status $rc, $got of $np ranks reported); the end of its stderr:"
      tail -n 20 "$out/err" | sed 's/^/#   /'
      status=1
      continue
    fi
    read -r fm_med fm_max < <(sed -n 's/.*first-message-ms \([0-9]*\).*/\1/p' <<<"$lines" | stats)
    read -r rss_med rss_max < <(sed -n 's/.*rss-kib \([0-9]*\).*/\1/p' <<<"$lines" | awk '{ printf "%.1f\n", $1 / 1024 }' | stats)
    printf '%-9s %5d %12s %12s %13s %13s %8.1f  %s\n' "$transport" "$np" "$fm_med" "$fm_max" "$rss_med" "$rss_max" "$wall" "$load"
  done
done
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
