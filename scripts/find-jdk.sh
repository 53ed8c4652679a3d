#!/usr/bin/env bash
# Prints the home of a JDK that can build and run pinmx: at least the release the build compiles for
# (<maven.compiler.release> in the parent pom, the one place that number lives), preferring the newest among
# $JAVA_HOME and the JDKs under $PINMX_JVM_DIR (default /usr/lib/jvm). Exits 1 with a message naming the
# version needed and what it looked at when there is none.
set -u
pom="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/pom.xml"
min=$(sed -n 's:.*<maven.compiler.release>\([0-9]*\)</maven.compiler.release>.*:\1:p' "$pom" | head -n 1)
if [ -z "$min" ]; then
  echo "find-jdk: no <maven.compiler.release> in $pom: cannot tell which JDK the build needs" >&2
  exit 1
fi
major_of() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}
candidates=()
[ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
for d in "${PINMX_JVM_DIR:-/usr/lib/jvm}"/*; do [ -d "$d" ] && candidates+=("$d"); done
best="" best_major=0 seen=()
for home in "${candidates[@]}"; do
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
  m=$(major_of "$home")
  [ -n "$m" ] || continue
  seen+=("$home ($m)")
  if [ "$m" -ge "$min" ] && [ "$m" -gt "$best_major" ]; then best=$home best_major=$m; fi
done
if [ -z "$best" ]; then
  echo "pinmx needs a JDK >= $min (the build compiles for release $min, pom.xml); found: ${seen[*]:-no JDK}." >&2
  echo "Install one (e.g. Temurin $min) under /usr/lib/jvm or set JAVA_HOME." >&2
  exit 1
fi
echo "$best"
