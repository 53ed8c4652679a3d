#!/usr/bin/env bash
# The main job: IMB PingPong between two local processes on the best available driver, with the
# TCP baseline measured in the same run and the ratios printed. Builds what it needs first; extra
# arguments go to PingPong (e.g. -msglog 0:10, --plot pingpong.png).
set -euo pipefail
cd "$(dirname "$0")"
exec bin/pinmx-run -np 2 PingPong --baseline tcp "$@"
