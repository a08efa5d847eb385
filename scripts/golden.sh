#!/usr/bin/env bash
# Captures every output of playbookdiff on a fixed set of repositories, so
# that a refactoring can be shown to change no byte of any output:
#
#   scripts/golden.sh before/    # on the commit before the change
#   scripts/golden.sh after/     # on the commit after it
#   diff -r before/ after/       # no output: byte-identical
#
# The repositories: examples/monorepo, every fixture repository of every
# crate (crates/*/tests/fixtures/*), and every corpus repository in both
# forms (repo.tar extracted, with its symbolic links; repo/, with links
# stored as text). For each: `compile` for each harness (text and JSON),
# the default view (at 100 and 80 columns), `check` in every format,
# `check --all-dirs` in every format, and `explain` of the first findings.
# Then `diff` on a scripted two-commit history of examples/monorepo.
#
# Each output file holds the command's stdout, then its stderr and exit
# status after a `--- stderr` line. Repositories are analysed from inside
# (`cd REPO; playbookdiff ... .`), so no machine path reaches an output.
#
# Usage: scripts/golden.sh OUTDIR
# Uses target/debug/playbookdiff (cargo build -p playbookdiff), or the
# binary named by PBD_BIN; the corpus is ../shared/corpus beside the
# repository, or the directory named by CORPUS (skipped when absent).
# EXPLAIN (default 8) is how many findings of each `check` get `explain`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
[ $# -eq 1 ] || { echo "usage: scripts/golden.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
bin=${PBD_BIN:-$root/target/debug/playbookdiff}
corpus=${CORPUS:-$root/../shared/corpus}
explain=${EXPLAIN:-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export NO_COLOR=1 COLUMNS=100
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=golden GIT_AUTHOR_EMAIL=golden@example.invalid
export GIT_COMMITTER_NAME=golden GIT_COMMITTER_EMAIL=golden@example.invalid
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'

# run FILE ARGS...: the output of `playbookdiff ARGS...` run in the current
# directory, into FILE.
run() {
    local file=$1
    shift
    local status=0
    "$bin" "$@" </dev/null >"$file" 2>"$file.err" || status=$?
    { echo "--- stderr"; cat "$file.err"; echo "--- exit $status"; } >>"$file"
    rm -f "$file.err"
}

# capture NAME DIR: every output for the repository at DIR.
capture() {
    local dest=$out/$1
    mkdir -p "$dest"
    (
        cd "$2"
        for h in claude-code codex opencode; do
            run "$dest/compile-$h.txt" compile --root --harness "$h" .
            run "$dest/compile-$h.json" compile --root --harness "$h" --format json .
        done
        run "$dest/view.txt" --root .
        COLUMNS=80 run "$dest/view-80.txt" --root .
        for f in text json markdown sarif github gitlab; do
            run "$dest/check.$f" check --root --format "$f" .
            run "$dest/check-all-dirs.$f" check --root --all-dirs --format "$f" .
        done
        COLUMNS=80 run "$dest/check-80.text" check --root .
        python3 -c '
import json, sys
try:
    doc = json.loads(open(sys.argv[1]).read().split("--- stderr\n")[0])
except ValueError:
    sys.exit(0)
for f in doc.get("findings", [])[: int(sys.argv[2])]:
    print(f["id"])
' "$dest/check.json" "$explain" | while read -r id; do
            run "$dest/explain-${id//[\/:]/_}.txt" explain --root "$id" .
        done
    )
}

capture example "$root/examples/monorepo"

for d in "$root"/crates/*/tests/fixtures/*/; do
    d=${d%/}
    crate=$(basename "$(dirname "$(dirname "$(dirname "$d")")")")
    capture "fixture/$crate/$(basename "$d")" "$d"
done

if [ -d "$corpus" ]; then
    for c in "$corpus"/*/; do
        c=${c%/}
        name=$(basename "$c")
        if [ -f "$c/repo.tar" ]; then
            mkdir -p "$work/tar/$name"
            tar -xf "$c/repo.tar" -C "$work/tar/$name"
            capture "corpus-tar/$name" "$work/tar/$name/repo"
        fi
        if [ -d "$c/repo" ]; then
            capture "corpus-text/$name" "$c/repo"
        fi
    done
else
    echo "golden: no corpus at $corpus, skipped" >&2
fi

# A scripted history: the example, then a commit that rewords an
# instruction, adds a nested AGENTS.md, a skill and an MCP server.
hist=$work/history
cp -r "$root/examples/monorepo" "$hist"
git -C "$hist" init -q -b main
git -C "$hist" add -A
git -C "$hist" commit -qm base
printf '# Web\n\nRun the web tests with pnpm test --filter web.\n' >"$hist/AGENTS.md.new"
find "$hist" -name AGENTS.md -not -path '*/.git/*' | head -n 1 | while read -r a; do
    printf '\nAlways run the linter with pnpm lint before a commit.\n' >>"$a"
done
mkdir -p "$hist/tools/golden"
mv "$hist/AGENTS.md.new" "$hist/tools/golden/AGENTS.md"
mkdir -p "$hist/.agents/skills/golden"
printf -- '---\nname: golden\ndescription: A skill added by the second commit.\n---\n\nSay hello.\n' \
    >"$hist/.agents/skills/golden/SKILL.md"
python3 - "$hist/.mcp.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc.setdefault("mcpServers", {})["golden"] = {"command": "golden-mcp", "args": ["--stdio"]}
json.dump(doc, open(sys.argv[1], "w"), indent=2)
PY
git -C "$hist" add -A
git -C "$hist" commit -qm change
mkdir -p "$out/diff"
(
    cd "$hist"
    for f in text json markdown; do
        run "$out/diff/range.$f" diff --format "$f" HEAD~1..HEAD .
        run "$out/diff/range-pair.$f" diff --harness claude-code --harness codex --format "$f" HEAD~1..HEAD .
    done
    printf '\nOne more line in the working tree.\n' >>"$hist/tools/golden/AGENTS.md"
    run "$out/diff/worktree.text" diff HEAD .
)
echo "golden: $(find "$out" -type f | wc -l) outputs in $out" >&2
