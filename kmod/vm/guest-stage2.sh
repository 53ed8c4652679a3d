#!/bin/bash
# Runs inside the test VM, chrooted in the host's root (read-only 9p), as root.
# $1 is the run file written by run-tests.sh: it defines PINMX_* variables and the
# command to run (PINMX_RUN). Loads the module, runs the command with the kernel log
# streamed as TAP comments, checks the kernel log, unloads the module and prints one
# machine-readable result line. Exits 0 only if all of that went well.
set -uo pipefail  # no -e: the checks after the command must run whatever it did

# shellcheck source=/dev/null
source "$1"
export PINMX_KO PINMX_BUILD_DIR PINMX_VM=1
export HOME=/tmp/home LANG=C.UTF-8
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
if [ -n "${PINMX_JAVA_HOME:-}" ]; then
	export JAVA_HOME=$PINMX_JAVA_HOME PATH="$PINMX_JAVA_HOME/bin:$PATH"
fi
mkdir -p "$HOME"

say() { echo "# vm: $*"; }

# Kernel messages logged from now on, streamed live; the copy lets the end of the run
# wait until a marker message has been printed, so no message is lost at power-off.
kmsg_copy=/tmp/pinmx-vm-kmsg
# Bash builtins only here: every exec from the cold 9p mount costs a few hundred ms.
dmesg --follow-new --color=never | while IFS= read -r line; do
	printf '# kmsg: %s\n' "$line"
	printf '%s\n' "$line" >>"$kmsg_copy"
done &

read -r release </proc/sys/kernel/osrelease
cpus=$(grep -c ^processor /proc/cpuinfo)
read -r _ mem_kib _ </proc/meminfo
say "kernel $release, $cpus cpus, $((mem_kib / 1024)) MiB"

module=${PINMX_KO##*/}
module=${module%.ko}
read -ra params <<<"${PINMX_MODULE_PARAMS:-}"
insmod_status=ok cmd_status=-1
if insmod "$PINMX_KO" "${params[@]}"; then
	say "insmod $PINMX_KO ${params[*]}"
	cd "$PINMX_CWD" || exit 1
	"${PINMX_RUN[@]}"
	cmd_status=$?
	cd / || exit 1
	say "command exited with status $cmd_status"
else
	insmod_status=failed
	say "insmod $PINMX_KO ${params[*]} failed"
fi

rmmod_status=ok
if [ -d "/sys/module/$module" ]; then
	rmmod "$module" || rmmod_status=failed
else
	# Tests may unload the module themselves; it must not be left half-gone.
	say "$module was not loaded any more at the end of the command"
fi

marker="pinmx-vm: end of run $PINMX_NONCE"
echo "$marker" >/dev/kmsg
deadline=$((SECONDS + 20))
until grep -qF "$marker" "$kmsg_copy"; do
	if [ "$SECONDS" -ge "$deadline" ]; then
		say "kernel log follower did not print the end marker within 20 s"
		break
	fi
	sleep 0.1
done

kmsg_status=clean
bad_pattern='\bWARNING\b|\bBUG\b|\bOops\b|Call Trace|general protection|KASAN|UBSAN|Kernel panic'
# x86's exc_debug_kernel warns when a single-step #DB reaches kernel code, which nothing in the kernel or the module
# arms; under TCG the emulator can leak one (the kernel's comment there names QEMU). Such a warning block is shown
# but does not make the log dirty; anything else in the log still does.
without_tcg_debug_traps() {
	awk '/\[ cut here \]/ { held = $0; inblock = 1; tcg = 0; next }
		inblock && /WARNING: .* exc_debug_kernel/ { tcg = 1 }
		inblock { held = held "\n" $0; if (/---\[ end trace/) { if (!tcg) print held; inblock = 0 }; next }
		{ print }
		END { if (inblock && !tcg) print held }'
}
if dmesg --color=never | without_tcg_debug_traps | grep -Eq "$bad_pattern"; then
	kmsg_status=dirty
	say "kernel log shows a warning or a bug; the whole log follows"
	dmesg --color=never | sed 's/^/# dmesg: /'
elif dmesg --color=never | grep -Eq "$bad_pattern"; then
	say "kernel log shows a single-step #DB leaked into kernel code (a TCG artifact), not counted; the log follows"
	dmesg --color=never | sed 's/^/# dmesg: /'
fi

say "insmod $insmod_status, command status $cmd_status, kernel log $kmsg_status, rmmod $rmmod_status"
echo "PINMX-VM-RESULT-$PINMX_NONCE insmod=$insmod_status cmd=$cmd_status kmsg=$kmsg_status rmmod=$rmmod_status"
[ "$insmod_status" = ok ] && [ "$cmd_status" -eq 0 ] && [ "$kmsg_status" = clean ] && [ "$rmmod_status" = ok ]
