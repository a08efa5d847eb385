#!/usr/bin/env bash
# Times playbookdiff against a bare parallel walk (fd -uu) and agnix on
# generated monorepos, side by side in one hyperfine run per tree, and
# measures each command's peak memory. Prints a Markdown table per tree
# (medians, ratios, peak RSS) and keeps hyperfine's JSON.
#
# Usage: scripts/bench/run.sh [--files N]... [--runs R] [--baseline BIN]
#   --files N      tree size; repeatable (default: 100000 and 1000000)
#   --runs R       timed runs per command (default 10; 3 for 1,000,000 files)
#   --baseline BIN another playbookdiff binary (say, a release build of the
#                  previous commit) timed in the same run, for before/after
#
# Trees are generated once by scripts/bench/gen-monorepo.py into
# ${PBD_BENCH_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/playbookdiff-bench}.
# hyperfine and fd-find are installed with apt-get when missing (as root);
# agnix is timed when it is on PATH (`pip install agnix`: the PyPI package
# ships the binary) on trees of up to 100,000 files. Uses target/release/playbookdiff, built here.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
sizes=() runs="" baseline=""
while (($#)); do
    case $1 in
    --files) sizes+=("$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --baseline) baseline=$(realpath "$2"); shift 2 ;;
    *) echo "unknown argument $1; see the header of $0" >&2; exit 2 ;;
    esac
done
((${#sizes[@]})) || sizes=(100000 1000000)
cache=${PBD_BENCH_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/playbookdiff-bench}
mkdir -p "$cache"

need() {
    command -v "$1" >/dev/null && return
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y "$2" >/dev/null || { apt-get update >/dev/null && apt-get install -y "$2" >/dev/null; }
    else
        echo "$1 is missing: apt-get install -y $2" >&2
        exit 2
    fi
}
need hyperfine hyperfine
need fdfind fd-find
[ -x /usr/bin/time ] || need time time

cargo build --release -p playbookdiff >&2
pbd=$PWD/target/release/playbookdiff

for n in "${sizes[@]}"; do
    tree=$cache/monorepo-$n
    if [ ! -f "$tree.deep" ]; then
        rm -rf "$tree"
        scripts/bench/gen-monorepo.py "$tree" --files "$n" >"$tree.deep"
    fi
    deep=$(tail -1 "$tree.deep")
    r=${runs:-$((n >= 1000000 ? 3 : 10))}
    names=() cmds=()
    add() { names+=("$1"); cmds+=("$2"); }
    add "fd -uu" "fdfind -uu . $tree"
    add "compile (root)" "$pbd compile $tree --harness claude-code --format json"
    add "compile (deep cwd)" "$pbd compile $tree --harness claude-code --cwd $deep --format json"
    add "check" "$pbd check $tree --format json"
    add "check --all-dirs" "$pbd check $tree --all-dirs --format json"
    if [ -n "$baseline" ]; then
        add "before: compile (root)" "$baseline compile $tree --harness claude-code --format json"
        add "before: compile (deep cwd)" "$baseline compile $tree --harness claude-code --cwd $deep --format json"
        add "before: check" "$baseline check $tree --format json"
        add "before: check --all-dirs" "$baseline check $tree --all-dirs --format json"
    fi
    # agnix on the 100,000-file tree only: the target is set there.
    if ((n <= 100000)) && command -v agnix >/dev/null; then
        add "agnix" "agnix $tree"
    fi
    args=()
    for i in "${!names[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
    json=$cache/hyperfine-$n.json
    # -i: check exits 1 when a finding is actionable, agnix when it finds
    # problems; neither is a failure here.
    hyperfine -N -i --warmup 1 --runs "$r" --export-json "$json" "${args[@]}" >&2
    mem=$cache/memory-$n.tsv
    : >"$mem"
    for i in "${!names[@]}"; do
        # shellcheck disable=SC2086
        # (a status of 1 from check or agnix is not a failure here)
        kb=$( (/usr/bin/time -f %M ${cmds[$i]} 2>&1 >/dev/null || true) | tail -1)
        printf '%s\t%s\n' "${names[$i]}" "$kb" >>"$mem"
    done
    python3 - "$json" "$mem" "$n" "$r" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
mem = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip())
n, runs = int(sys.argv[3]), sys.argv[4]
med = {r["command"]: r["median"] for r in res}
fd = med["fd -uu"]
print(f"\n### {n:,} files (median of {runs} runs)\n")
print("| Command | Median | × fd -uu | Peak RSS |")
print("|---|---:|---:|---:|")
for r in res:
    c = r["command"]
    print(f"| `{c}` | {r['median']*1000:,.0f} ms | {r['median']/fd:.2f} | {int(mem.get(c, 0))/1024:,.0f} MB |")
def ratio(a, b):
    return f"{med[a]/med[b]:.2f}" if a in med and b in med else "n/a"
print()
print(f"- compile (root) / fd -uu: {ratio('compile (root)', 'fd -uu')} (target ≤ 1.3)")
print(f"- compile (deep cwd) / fd -uu: {ratio('compile (deep cwd)', 'fd -uu')} (target ≤ 0.3)")
print(f"- check --all-dirs / compile (root): {ratio('check --all-dirs', 'compile (root)')} (target ≤ 2)")
if "agnix" in med:
    print(f"- agnix / check: {ratio('agnix', 'check')} (target ≥ 10)")
PY
done
