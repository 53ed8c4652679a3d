#!/usr/bin/env bash
# The main job: IMB PingPong between two local processes on the user-space driver, with three
# baselines measured in the same run before it and the ratios against each printed: blocking TCP,
# busy-polling TCP and Aeron IPC (both bound and polling as pinmx does). Builds what it needs first;
# extra arguments go to PingPong (e.g. -msglog 0:10, --plot pingpong.png).
set -euo pipefail
cd "$(dirname "$0")"
exec bin/pinmx-run -np 2 PingPong --baseline tcp,tcp-busy,aeron "$@"
