#!/usr/bin/env bash
# The main job: a ping-pong between two local processes on the best available driver.
# Builds what it needs first; extra arguments go to the ping-pong program.
set -euo pipefail
source "$(dirname "$0")/scripts/lib.sh"
cd "$PINMX_ROOT"
pinmx_use_jdk
cp=$(pinmx_classpath pin-service)
# shellcheck disable=SC2046 # the flags are a list of words
exec "$JAVA_HOME/bin/java" $(pinmx_jvm_flags) -cp "$cp" io.pinmx.pin.user.FramePingPong "$@"
