#!/usr/bin/env bash
# Where the CPU work of one same-host 8 B message goes: runs MessageCost under JDK Flight Recorder's execution and
# native-method samplers (1 ms; a thread waiting for a CPU is in neither, so the shares hold on a loaded host; a
# system call made through FFM shows in the native samples only) and splits its pinmx samples into the steps of the
# path, scaled to MessageCost's CPU ns per message and per empty poll. A sample belongs to the deepest step method on
# its stack, so each step's share excludes the steps it calls.
# usage: bench-imb/profile-message-cost.sh [MESSAGE_BYTES]   (recording and printed samples in bench-imb/target/profile/)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
pinmx_use_jdk
dir=bench-imb/target/profile
mkdir -p "$dir"
cat > "$dir/cpu.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event>
  <event name="jdk.NativeMethodSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event>
</configuration>
JFC
cp=$(pinmx_classpath bench-imb)
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$JAVA_HOME/bin/java" $(pinmx_jvm_flags) -XX:StartFlightRecording=filename="$dir/message-cost.jfr,settings=$dir/cpu.jfc" \
  -Xlog:jfr=warning -cp "$cp" io.pinmx.bench.MessageCost "$@" | tee "$dir/message-cost.txt"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample,jdk.NativeMethodSample --stack-depth 80 "$dir/message-cost.jfr" > "$dir/samples.txt"
cpu_figures=$(sed -n 's/^pinmx: .*CPU time: \([0-9.]*\) ns per message, \([0-9.]*\) ns per empty poll.*/\1 \2/p' \
  "$dir/message-cost.txt")
python3 - "$dir/samples.txt" $cpu_figures <<'PY'
import collections, re, sys
# (method, step): a sample's step is the deepest of these methods on its stack
STEPS = [
    ("io.pinmx.mx.Endpoint.isend", "send 1: isend API, request pool, describe"),
    ("io.pinmx.mx.RequestPoster.queue", "send 2: queue on partner, outbound pump"),
    ("io.pinmx.mx.OutboundQueue.sendCopied", "send 3: eager copy, frame header encode"),
    ("io.pinmx.mx.FrameSender.transmit", "send 4: ack piggyback, driver send call"),
    ("io.pinmx.pin.user.UserEndpoint.send", "send 5: contract checks, peer lookup, counters"),
    ("io.pinmx.pin.user.ShmFrameRing.offer", "send 6: shm ring claim (CAS) and write"),
    ("io.pinmx.mx.Endpoint.irecv", "recv 1: irecv post (pool, match queue)"),
    ("io.pinmx.mx.Request.test", "wait 1: Request.test, caller progress entry"),
    ("io.pinmx.mx.EndpointRound.lockedRound", "round 1: round entry, endpoint lock, clock"),
    ("io.pinmx.pin.user.UserEndpoint.poll", "round 2: driver poll, poll lock, event ring"),
    ("io.pinmx.pin.user.EndpointAgent.runIfFree", "round 3: duty cycle entry, agent lock, UDP poll"),
    ("io.pinmx.pin.user.ShmFrameRing.drain", "round 4: shm ring read and release"),
    ("io.pinmx.pin.user.FrameDispatcher.onShmFrame", "round 5: frame check, peer hold, driver event"),
    ("io.pinmx.mx.FrameReceiver.onEvent", "round 6: endpoint frame dispatch, seq and ack"),
    ("io.pinmx.mx.match.MatchQueue.match", "round 7: match"),
    ("io.pinmx.mx.SegmentVector.copyOut", "round 8: copy into the receive buffer"),
    ("io.pinmx.mx.RequestPool.complete", "round 9: request completion"),
    ("io.pinmx.mx.PartnerTimers.run", "round 10: partner timers"),
    ("io.pinmx.mx.Endpoint.release", "release: both requests back to the pool"),
]
OTHER = "other: the benchmark's loop"
step_of = dict(STEPS)
events = re.split(r"jdk\.(?:ExecutionSample|NativeMethodSample) \{", open(sys.argv[1]).read())[1:]
stacks = [re.findall(r"^\s+([\w.$<>]+)\(", event, re.M) for event in events]


def table(loop, total_ns, what):
    """Prints the steps of the samples taken inside MessageCost's lambda named loop."""
    counts, n = collections.Counter(), 0
    for frames in stacks:
        if "io.pinmx.bench.MessageCost." + loop in frames:
            n += 1
            counts[next((step_of[f] for f in frames if f in step_of), OTHER)] += 1
    if n == 0:
        sys.exit("profile-message-cost: no samples of " + loop + " in the recording")
    print(f"# {n} samples of {what}, {total_ns:.1f} CPU ns each")
    print(f"| step | samples | share | ns per {what} |\n|---|---:|---:|---:|")
    for _, step in STEPS + [(None, OTHER)]:
        if counts[step]:
            print(f"| {step} | {counts[step]} | {100.0 * counts[step] / n:.1f}% | {total_ns * counts[step] / n:.0f} |")
    print(f"| total | {n} | 100% | {total_ns:.0f} |")


table("lambda$pinmx$0", float(sys.argv[2]), "message")
table("lambda$pinmx$1", float(sys.argv[3]), "empty poll")
PY
