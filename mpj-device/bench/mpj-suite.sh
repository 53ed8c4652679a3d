#!/usr/bin/env bash
# MPJ Express's own test suite (its sources' test/ directory: mpi/pt2pt, ccl, comm, ...; mpjdev; xdev) through
# pinmx's device and through MPJ's niodev, each test class its own job:
#
#   mpj-device/bench/mpj-suite.sh MPJ_TEST_DIR [--np "2 4"] [--progress "caller thread"] [--devices "pinmx niodev"]
#                                 [--dirs "mpi/pt2pt ..."] [--only REGEX] [--timeout S] [--load N]
#                                 [--classes DIR] [--logs DIR]
#
# First compiles every .java under MPJ_TEST_DIR against /usr/share/java/mpj.jar (0.44) into --classes (default
# $TMPDIR/mpj-suite-classes): a file that does not compile is left out, with its first error, in
# DIR/not-compiled.txt, and the rest compiled again until all left compile. Then runs each class with a main method
# under --dirs (default: the mpi/ categories, mpjdev/buffertest and xdev) whose name matches --only, for each rank
# count of --np: on pinmx (bin/pinmx-run --mpj, once per PINMX_MPJ_PROGRESS of --progress) and on niodev
# (io.pinmx.mpj.niodev.NiodevJob), each with a deadline of --timeout seconds (default 120). xdev's tests name the
# device mxdev themselves: they run on pinmx only. Each test runs as MPJ's TestSuite runs it: by its (String[])
# constructor, so that what it throws fails it (most tests' mains swallow exceptions). --load N runs N busy shell
# loops for the whole run (killed at its end). One line per test and device:
#
#   mpi.pt2pt.isend np=2 pinmx-caller PASS 3.1 s
#
# then a summary. A test passes by MPJ's own criterion: exit status 0 and no output line (any rank's) naming an
# exception class, an error, a failure or a wrong value; the output of every job that did not pass is kept in
# --logs (default $TMPDIR/mpj-suite-logs), one file per test, rank count and device. PINMX_CLASSPATH, when set, is
# the device's class path (as for bin/pinmx-run); otherwise the script builds mpj-device when its sources changed.
set -euo pipefail

usage() {
  echo "usage: mpj-suite.sh MPJ_TEST_DIR [--np \"2 4\"] [--progress \"caller thread\"] [--devices \"pinmx niodev\"] [--dirs \"DIR ...\"] [--only REGEX] [--timeout S] [--load N] [--classes DIR] [--logs DIR]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
src=$(readlink -f "$1"); shift
[ -d "$src/mpi" ] || { echo "mpj-suite.sh: $src is not MPJ Express's test directory (no mpi/ in it)" >&2; exit 2; }
np_list="2 4" progress_list="caller thread" devices="pinmx niodev" only=. timeout_s=120 load=0
dirs="mpi/pt2pt mpi/pt2pt_ObjSer mpi/ccl mpi/ccl_ObjSer mpi/comm mpi/group mpi/dtyp mpi/dtyp_ObjSer mpi/topo mpi/env mpi/signals mpi/threads mpjdev/buffertest xdev"
classes=${TMPDIR:-/tmp}/mpj-suite-classes logs=${TMPDIR:-/tmp}/mpj-suite-logs
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case "$1" in
    --np) np_list=$2 ;;
    --progress) progress_list=$2 ;;
    --devices) devices=$2 ;;
    --dirs) dirs=$2 ;;
    --only) only=$2 ;;
    --timeout) [[ "$2" =~ ^[0-9]+$ ]] || { echo "mpj-suite.sh: --timeout needs seconds, not '$2'" >&2; exit 2; }; timeout_s=$2 ;;
    --load) [[ "$2" =~ ^[0-9]+$ ]] || { echo "mpj-suite.sh: --load needs a number of busy loops, not '$2'" >&2; exit 2; }; load=$2 ;;
    --classes) classes=$2 ;;
    --logs) logs=$2 ;;
    *) usage ;;
  esac
  shift 2
done

for np in $np_list; do
  [[ "$np" =~ ^[0-9]+$ ]] && [ "$np" -ge 2 ] || { echo "mpj-suite.sh: --np '$np': expected rank counts of 2 or more" >&2; exit 2; }
done
for progress in $progress_list; do
  [[ "$progress" =~ ^(caller|thread)$ ]] || { echo "mpj-suite.sh: --progress '$progress': expected caller or thread" >&2; exit 2; }
done
for device in $devices; do
  [[ "$device" =~ ^(pinmx|niodev)$ ]] || { echo "mpj-suite.sh: --devices '$device': expected pinmx or niodev" >&2; exit 2; }
done

root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
source "$root/scripts/lib.sh"
pinmx_use_jdk
pinmx_need_mpj
export MPJ_HOME=${MPJ_HOME:-$PINMX_MPJ_HOME}
device_cp=${PINMX_CLASSPATH:-$(cd "$root" && pinmx_classpath mpj-device)}
read -ra flags <<<"$(pinmx_jvm_flags)"
mkdir -p "$classes" "$logs"

# Compiles the sources left in $classes/sources until javac succeeds; each round moves the files javac named in an
# error to not-compiled.txt with that error.
compile() {
  (cd "$src" && find . -name '*.java' | sed 's|^\./||' | sort) >"$classes/sources"
  : >"$classes/not-compiled.txt"
  while [ -s "$classes/sources" ]; do
    rm -rf "$classes/out"
    if (cd "$src" && "$JAVA_HOME/bin/javac" -nowarn -encoding ISO-8859-1 -Xmaxerrs 100000 -cp "$PINMX_MPJ_JARS" \
        -d "$classes/out" "@$classes/sources") >"$classes/javac.log" 2>&1; then
      return 0
    fi
    local bad
    bad=$(sed -n 's|^\([^ :]*\.java\):[0-9]*: error: .*|\1|p' "$classes/javac.log" | sort -u)
    [ -n "$bad" ] || { cat "$classes/javac.log" >&2; echo "mpj-suite.sh: javac failed without naming a file" >&2; exit 1; }
    for f in $bad; do
      printf '%s: %s\n' "$f" "$(grep -m1 -F "$f:" "$classes/javac.log" | sed 's|^[^ ]*: error: ||')" >>"$classes/not-compiled.txt"
    done
    grep -vxF -f <(printf '%s\n' $bad) "$classes/sources" >"$classes/sources.next" || true
    mv "$classes/sources.next" "$classes/sources"
  done
}
# Compiled once per test directory: again only when a source is newer than the last compilation.
if [ -d "$classes/out" ] && [ "$(cat "$classes/from" 2>/dev/null)" = "$src" ] &&
  [ -z "$(find "$src" -name '*.java' -newer "$classes/javac.log" -print -quit)" ]; then
  echo "== compiled $src in $classes/out already"
else
  echo "== compiling $src against $PINMX_MPJ_JARS into $classes/out"
  compile
  echo "$src" >"$classes/from"
fi
# MPJ's TestSuite runs each test by its (String[]) constructor, which throws what fails; most tests' own mains
# swallow every exception, and a few are empty. The runner does what TestSuite does for one test class (its main only
# when it has no such constructor) and ends the rank with status 1 on anything thrown.
mkdir -p "$classes/runner"
cat >"$classes/runner/MpjSuiteRunner.java" <<'JAVA'
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/** MpjSuiteRunner RANK CONFIG DEVICE TEST_CLASS: new TEST_CLASS(RANK CONFIG DEVICE), as MPJ's TestSuite. */
public final class MpjSuiteRunner
{
    public static void main(final String[] args)
    {
        final String test = args[args.length - 1];
        final String[] mpjArgs = Arrays.copyOf(args, args.length - 1);
        try
        {
            final Class<?> c = Class.forName(test);
            Constructor<?> constructor = null;
            try
            {
                constructor = c.getDeclaredConstructor(String[].class);
            }
            catch (final NoSuchMethodException ex)
            {
                final Method main = c.getMethod("main", String[].class);
                main.setAccessible(true);
                main.invoke(null, (Object)mpjArgs);
            }
            if (null != constructor)
            {
                constructor.setAccessible(true);
                constructor.newInstance((Object)mpjArgs);
            }
        }
        catch (final InvocationTargetException ex)
        {
            ex.getCause().printStackTrace();
            System.exit(1);
        }
        catch (final ReflectiveOperationException ex)
        {
            System.err.println("MpjSuiteRunner: cannot run " + test + ": " + ex);
            System.exit(1);
        }
    }
}
JAVA
"$JAVA_HOME/bin/javac" -nowarn -d "$classes/out" "$classes/runner/MpjSuiteRunner.java"

echo "== $(wc -l <"$classes/sources") files compiled; $(wc -l <"$classes/not-compiled.txt") not (API not in MPJ 0.44 or broken sources; $classes/not-compiled.txt):"
sed 's/^/   /' "$classes/not-compiled.txt"

# The test classes: compiled sources under $dirs with a main method, as class names.
tests=()
for d in $dirs; do
  while IFS= read -r f; do
    grep -qE 'static[a-z ]* void +main *\(' "$src/$f" || continue
    pkg=$(sed -n 's/^ *package *\([A-Za-z0-9_.]*\) *;.*/\1/p' "$src/$f" | head -1)
    name=$(basename "$f" .java)
    cls=${pkg:+$pkg.}$name
    if [[ "$cls" =~ $only ]]; then tests+=("$cls"); fi
  done < <(grep "^$d/" "$classes/sources" || true)
done
[ ${#tests[@]} -gt 0 ] || { echo "mpj-suite.sh: no test class under '$dirs' matches '$only'" >&2; exit 2; }

hogs=()
stop_hogs() { local p; for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for ((i = 0; i < load; i++)); do
  (while :; do :; done) &
  hogs+=($!)
done

# What MPJ's tests print when a check fails (ERROR ..., ... failed, FAILED, Wrong value ...), and exceptions by class
# name (a test's own prose says "exception" in lower case).
failure_lines='Exception|[Ee]rror|ERROR|[Ff]ail|FAIL|[Ww]rong|WRONG'

# run DEVICE PROGRESS NP CLASS: one job, its output to $log; prints the result line.
pass=0 fail=0 timeouts=0
run() {
  local device=$1 progress=$2 np=$3 cls=$4 status=0 start end label=$1
  if [ "$device" = pinmx ]; then label=pinmx-$progress; fi
  local log="$logs/$cls.np$np.$label.log"
  start=$(date +%s.%N)
  if [ "$device" = pinmx ]; then
    PINMX_MPJ_PROGRESS=$progress PINMX_CLASSPATH="$device_cp:$classes/out" \
      timeout -k 10 "$timeout_s" "$root/bin/pinmx-run" -np "$np" --mpj MpjSuiteRunner "$cls" >"$log" 2>&1 </dev/null || status=$?
  else
    timeout -k 10 "$timeout_s" "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$device_cp:$PINMX_MPJ_JARS:$classes/out" \
      io.pinmx.mpj.niodev.NiodevJob -np "$np" MpjSuiteRunner "$cls" >"$log" 2>&1 </dev/null || status=$?
  fi
  end=$(date +%s.%N)
  local verdict=PASS
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    verdict=TIMEOUT; timeouts=$((timeouts + 1))
  elif [ "$status" -ne 0 ] || grep -qE "$failure_lines" "$log"; then
    verdict=FAIL; fail=$((fail + 1))
  else
    pass=$((pass + 1)); rm -f "$log"
  fi
  printf '%s np=%s %s %s %.1f s%s\n' "$cls" "$np" "$label" "$verdict" "$(echo "$end - $start" | bc)" \
    "$([ "$verdict" = PASS ] || echo " (exit $status; $log)")"
}

echo "== ${#tests[@]} tests, np: $np_list, devices: $devices, pinmx progress: $progress_list, deadline ${timeout_s} s, $load busy loops; $(uptime)"
for np in $np_list; do
  for cls in "${tests[@]}"; do
    for device in $devices; do
      if [ "$device" = pinmx ]; then
        for progress in $progress_list; do run pinmx "$progress" "$np" "$cls"; done
      elif [[ "$cls" != xdev.* ]]; then
        run niodev - "$np" "$cls"
      fi
    done
  done
done
echo "== summary: $pass passed, $fail failed, $timeouts timed out; $(uptime)"
