#!/usr/bin/env bash
# Runs the main job (./run-main.sh) N times in a row and says, per target of the main job, in how many runs it is met:
# 8 B and 1-32 KiB half round trip <= 2x Aeron IPC, 64 KiB bandwidth >= 0.6x memcpy, 4 MiB >= 1.0x memcpy.
# Every run's whole output is kept (DIR/run-K.log) with its results for scripts (DIR/run-K.json, --json), which the
# tally reads; a run that fails stops the series, naming its log.
# usage: bench-imb/run-series.sh [-o DIR] N [PingPong arguments, passed to every run]
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "run-series: $*" >&2; exit 2; }

dir=bench-imb/target/series
if [ "${1:-}" = -o ]; then
	dir=${2:?-o needs a directory}
	shift 2
fi
runs=${1:-}
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "usage: bench-imb/run-series.sh [-o DIR] N [PingPong arguments] (N, the number of runs, is '${runs}')"
shift
mkdir -p "$dir"

# One line per target: name, metric, baseline, smallest size, largest size, comparison, bound.
targets='8B-vs-aeron latency aeron 8 8 <= 2
1-32KiB-vs-aeron latency aeron 1024 32768 <= 2
64KiB-vs-memcpy bandwidth memcpy 65536 65536 >= 0.6
4MiB-vs-memcpy bandwidth memcpy 4194304 4194304 >= 1.0'

# Prints "NAME met|missed|absent worst=R" for each target, from the ratios of one run's --json file:
# {..."ratios":[{"metric":"latency","bytes":8,"measured":"pinmx","baseline":"aeron","value":2.200},...]}
judge() {
	sed 's/.*"ratios":\[//' "$1" | tr '}' '\n' | awk -v targets="$targets" '
		function field(name,    m) {
			if (!match($0, "\"" name "\":\"?[^\",]*")) return ""
			m = substr($0, RSTART, RLENGTH)
			sub(/^"[^"]*":"?/, "", m)
			return m
		}
		BEGIN {
			n = split(targets, rows, "\n")
			for (i = 1; i <= n; i++) {
				split(rows[i], f, " ")
				name[i] = f[1]; metric[i] = f[2]; base[i] = f[3]; lo[i] = f[4]; hi[i] = f[5]
				cmp[i] = f[6]; bound[i] = f[7]
			}
		}
		field("metric") != "" && field("value") ~ /^[0-9.]+$/ {
			for (i = 1; i <= n; i++)
				if (field("metric") == metric[i] && field("baseline") == base[i] && field("bytes") + 0 >= lo[i] &&
					field("bytes") + 0 <= hi[i]) {
					r = field("value") + 0
					if (!(i in worst) || (cmp[i] == "<=" ? r > worst[i] : r < worst[i]))
						worst[i] = r
				}
		}
		END {
			for (i = 1; i <= n; i++) {
				if (!(i in worst)) { print name[i], "absent", "worst=-"; continue }
				ok = cmp[i] == "<=" ? worst[i] <= bound[i] + 0 : worst[i] >= bound[i] + 0
				print name[i], ok ? "met" : "missed", "worst=" worst[i]
			}
		}'
}

summary=$dir/summary.txt
: >"$summary"
for k in $(seq 1 "$runs"); do
	log=$dir/run-$k.log json=$dir/run-$k.json
	echo "# run $k of $runs ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg)) -> $log"
	./run-main.sh "$@" --json "$json" >"$log" 2>&1 || die "run $k failed (exit $?); its output: $log"
	judge "$json" | sed "s/^/run $k /" | tee -a "$summary"
done
echo "# per target, the runs that met it (a row's worst size decides a run; 'absent': the run measured no such size)"
awk '{ runs[$3]++; if ($4 == "met") met[$3]++ }
	END { for (t in runs) printf "%s: met in %d of %d runs\n", t, met[t] + 0, runs[t] }' "$summary" | sort
