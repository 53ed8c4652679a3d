#!/usr/bin/env bash
# Runs PinningPingPong (IMB PingPong over pinmx.ko with the Open-MX paper's four pinning set-ups) in the qemu
# guest of kmod/vm: builds bench-imb on the host, snapshots its classpath under <repo>/build (the guest sees the
# host's root read-only, but its /tmp is its own), then runs both ranks in the guest with the module loaded.
#
#   bench-imb/run-pinning-vm.sh [--kernel 6.1|6.12] [PinningPingPong ARGS...]
#
# Default arguments: -msglog 16:22 -rounds 3 -iter 100,16 (about 6 minutes of guest time under TCG).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
kernel=6.1
if [ "${1:-}" = --kernel ]; then kernel=$2; shift 2; fi
[ $# -gt 0 ] || set -- -msglog 16:22 -rounds 3 -iter 100,16
source "$root/scripts/lib.sh"
pinmx_use_jdk
cp=$(cd "$root" && pinmx_classpath bench-imb)
snapshot=$root/build/bench-pinning-cp
rm -rf "$snapshot" && mkdir -p "$snapshot"
IFS=: read -ra jars <<< "$cp"
cp "${jars[@]}" "$snapshot/"
# The guest is slow enough under TCG that a rank is silent for over 5 s in JIT warm-up, hence the longer
# peer timeout.
exec "$root/kmod/vm/run-tests.sh" --kernel "$kernel" --timeout 1200 --cmd \
  "PINMX_CLASSPATH=\$(ls -d $snapshot/*.jar | tr '\\n' ':') bin/pinmx-run -np 2 --driver kernel --peer-timeout 60 PinningPingPong $*"
