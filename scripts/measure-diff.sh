#!/usr/bin/env bash
# Measures `playbookdiff diff` and `compile --rev` on the generated
# 100,000-file tree, side by side with what git itself needs for the same
# reading:
#
#   1. builds the tree (scripts/generate-large-tree.py) as a git repository
#      with one commit, then a second commit changing five configuration
#      files of five packages (AGENTS.md or CLAUDE.md);
#   2. times `git ls-tree -r` of both commits plus `git cat-file --batch`
#      of the changed blobs (the floor: listing both trees and reading what
#      changed), against `playbookdiff diff BASE..HEAD --format json`;
#   3. times `playbookdiff compile --rev HEAD` against `compile` on the
#      working tree (both harnesses, at the root).
#
# Each command runs once untimed (warm page cache), then RUNS timed runs;
# the median wall time is printed.
#
# Usage: scripts/measure-diff.sh [DIR] [RUNS]
# Uses target/release/playbookdiff (cargo build --release -p playbookdiff),
# or the binary named by PBD_BIN.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${1:-$(mktemp -d)/pbd-diff}
runs=${2:-5}
bin=${PBD_BIN:-$PWD/target/release/playbookdiff}

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid

if [ ! -d "$dir/.git/objects" ]; then
    rm -rf "$dir"
    python3 scripts/generate-large-tree.py "$dir" >/dev/null
    rm -rf "$dir/.git"
    git -C "$dir" init -q -b main
    git -C "$dir" add -A
    git -C "$dir" commit -qm base
    for p in apps/p000 packages/p001 packages/p002 apps/p003; do
        printf '# %s\n\nKeep the public API stable.\n\nRun the tests with pnpm test.\n' "$p" >"$dir/$p/AGENTS.md"
    done
    printf '# packages/p005\n\nRun the package tests with pnpm test.\n' >"$dir/packages/p005/CLAUDE.md"
    git -C "$dir" commit -qam "five configuration files"
    git -C "$dir" gc -q
fi
base=$(git -C "$dir" rev-parse HEAD~1)
head=$(git -C "$dir" rev-parse HEAD)

git_floor() {
    git -C "$dir" ls-tree -r "$base" >/dev/null
    git -C "$dir" ls-tree -r "$head" >/dev/null
    git -C "$dir" diff-tree -r --no-renames "$base" "$head" |
        awk '{print $3; print $4}' | grep -v '^0*$' |
        git -C "$dir" cat-file --batch >/dev/null
}
pbd_diff() { "$bin" diff "$base..$head" "$dir" --format json >/dev/null || [ $? -eq 1 ]; }
compile_rev() { "$bin" compile "$dir" --rev HEAD --format json >/dev/null; }
compile_wt() { "$bin" compile "$dir" --format json >/dev/null; }

median_ms() {
    "$1"
    local walls=()
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s%N)
        "$1"
        end=$(date +%s%N)
        walls+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

echo "tree: $dir ($(git -C "$dir" ls-files | wc -l) files), $runs runs each"
floor=$(median_ms git_floor)
diff=$(median_ms pbd_diff)
echo "git ls-tree -r (both) + cat-file --batch (changed): ${floor} ms"
echo "playbookdiff diff BASE..HEAD:                      ${diff} ms ($(awk -v a="$diff" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')x)"
wt=$(median_ms compile_wt)
rev=$(median_ms compile_rev)
echo "playbookdiff compile (working tree):               ${wt} ms"
echo "playbookdiff compile --rev HEAD:                   ${rev} ms ($(awk -v a="$rev" -v b="$wt" 'BEGIN { printf "%.2f", a / b }')x)"
