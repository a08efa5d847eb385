#!/usr/bin/env bash
# Measures `playbookdiff compile` on one tree, for one harness and one
# launch directory: one untimed warm-up run (so the page cache is warm),
# then RUNS timed runs under `/usr/bin/time -v`. Prints the median wall
# time and the largest maximum resident set size.
#
# Usage: scripts/measure-compile.sh TREE HARNESS CWD [RUNS]
# Uses target/release/playbookdiff (cargo build --release -p playbookdiff).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
tree=$1 harness=$2 cwd=$3 runs=${4:-5}
bin=target/release/playbookdiff
report=$(mktemp)
trap 'rm -f "$report"' EXIT

compile() {
    "$@" "$bin" compile "$tree" --harness "$harness" --cwd "$cwd" --format json >/dev/null
}

compile
walls=()
rss=0
for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    compile /usr/bin/time -v -o "$report"
    end=$(date +%s%N)
    walls+=($(((end - start) / 1000000)))
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$report")
    if ((kb > rss)); then rss=$kb; fi
done
median=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
echo "$harness cwd=$cwd: median ${median} ms over $runs runs, max RSS $((rss / 1024)) MiB"
