#!/usr/bin/env bash
# Prints the home of a JDK >= 22 (FFM is final since 22), preferring $JAVA_HOME, then
# /usr/lib/jvm/*. Exits 1 with a message naming what it looked at when there is none.
set -u
min=22
major_of() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}
candidates=()
[ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
for d in /usr/lib/jvm/*; do [ -d "$d" ] && candidates+=("$d"); done
best="" best_major=0
for home in "${candidates[@]}"; do
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
  m=$(major_of "$home")
  [ -n "$m" ] || continue
  if [ "$m" -ge "$min" ] && [ "$m" -gt "$best_major" ]; then best=$home best_major=$m; fi
done
if [ -z "$best" ]; then
  echo "pinmx needs a JDK >= $min (Panama FFM); looked at: ${candidates[*]:-nothing}." >&2
  echo "Install one (e.g. Temurin 25) under /usr/lib/jvm or set JAVA_HOME." >&2
  exit 1
fi
echo "$best"
