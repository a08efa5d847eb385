#!/usr/bin/env bash
# The shell logic of the PlaybookDiff GitHub Action (action.yml at the
# repository root); crates/playbookdiff/tests/cli/action.rs runs it with a stub
# `playbookdiff` and a fake event.
#
# On a pull request it compares the base and the head commit
# (`playbookdiff diff BASE..HEAD`); on any other event (a push) it checks
# the checked-out tree (`playbookdiff check`). It writes the Markdown
# report to the job summary, annotations (workflow commands) to standard
# output, SARIF to a file when asked, and the outputs to $GITHUB_OUTPUT.
# It reads only the checkout and the event file: no network, no token.
#
# Environment (the Action passes its inputs this way, never by
# interpolating them into the script):
#   PLAYBOOKDIFF          the command to run (default: playbookdiff)
#   INPUT_REPOSITORY      the repository root (default: $GITHUB_WORKSPACE, else .)
#   INPUT_BASELINE        base revision (default: the pull request's base SHA)
#   INPUT_CANDIDATE       head revision (default: the pull request's head SHA)
#   INPUT_CWD, INPUT_PATH check only: --cwd and --target
#   INPUT_ALL_DIRS        check only: "true" (default) checks every launch directory
#   INPUT_FAIL_ON         --fail-on (default: fail-on of playbookdiff.toml, else medium)
#   INPUT_SARIF           a file to write SARIF to (default: none)
#   GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
#   GITHUB_SHA, GITHUB_WORKSPACE: set by the runner.
#
# Exit status: playbookdiff's (0 passed, 1 findings fail the run), 2 when
# the analysis could not run (an unknown revision, a bad argument).

set -euo pipefail

pd="${PLAYBOOKDIFF:-playbookdiff}"
repo="${INPUT_REPOSITORY:-${GITHUB_WORKSPACE:-.}}"
outputs="${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set: run this script as a step of a GitHub workflow}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

output() { printf '%s=%s\n' "$1" "$2" >>"$outputs"; }

# A workflow command's message, escaped as the runner expects.
escape() {
    local s="$1"
    s="${s//'%'/'%25'}"
    s="${s//$'\r'/'%0D'}"
    s="${s//$'\n'/'%0A'}"
    printf '%s' "$s"
}

fail() {
    echo "::error title=PlaybookDiff::$(escape "$1")"
    output result error
    exit 2
}

# A field of the event payload, empty when absent or unreadable.
event() {
    if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -r "$GITHUB_EVENT_PATH" ]; then
        jq -r "$1 // empty" "$GITHUB_EVENT_PATH" 2>/dev/null || true
    fi
}

# Sets `sha` to the full commit id of revision $1 in the checkout, or
# fails saying how to make it available.
commit_of() {
    local rev="$1" what="$2"
    case "$rev" in
    -*) fail "the $what revision '$rev' is not a revision" ;;
    esac
    if ! sha="$(git -C "$repo" rev-parse --verify --quiet "$rev^{commit}" 2>/dev/null)"; then
        fail "the $what revision '$rev' is not in the checkout; check out with actions/checkout and fetch-depth: 0 so that both commits are present"
    fi
}

# Runs playbookdiff with the arguments given; its standard output goes to
# the file $1. Sets `status` (0, 1 or 2).
run() {
    local file="$1"
    shift
    status=0
    "$pd" "$@" >"$file" || status=$?
    if [ "$status" -gt 1 ]; then
        fail "playbookdiff $1 could not run (exit status $status); its message is above"
    fi
}

number() {
    jq -r "$1 // 0" "$2"
}

base="${INPUT_BASELINE:-}"
head="${INPUT_CANDIDATE:-}"
fork=false
case "${GITHUB_EVENT_NAME:-}" in
pull_request | pull_request_target)
    [ -n "$base" ] || base="$(event .pull_request.base.sha)"
    [ -n "$head" ] || head="$(event .pull_request.head.sha)"
    head_repo="$(event .pull_request.head.repo.full_name)"
    base_repo="$(event .pull_request.base.repo.full_name)"
    if [ -n "$head_repo" ] && [ "$head_repo" != "$base_repo" ]; then
        fork=true
    fi
    ;;
esac
output fork "$fork"

if [ -n "$base" ] || [ -n "$head" ]; then
    [ -n "$base" ] || fail "the candidate revision is set but not the baseline; set both inputs, or run on a pull request"
    [ -n "$head" ] || fail "the baseline revision is set but not the candidate; set both inputs, or run on a pull request"
    commit_of "$base" baseline
    base_sha="$sha"
    commit_of "$head" candidate
    head_sha="$sha"
    range="$base_sha..$head_sha"
    dargs=(diff "$range" "$repo")
    [ -z "${INPUT_FAIL_ON:-}" ] || dargs+=(--fail-on "$INPUT_FAIL_ON")
    output mode diff
    run "$tmp/diff.json" "${dargs[@]}" --format json
    final=$status
    introduced="$(number .summary.introduced "$tmp/diff.json")"
    actionable="$(number .summary.introducedActionable "$tmp/diff.json")"
    output result "$([ "$final" -eq 0 ] && echo no-new-regressions || echo new-regressions)"
    output introduced-count "$introduced"
    output introduced-actionable-count "$actionable"
    output introduced-informational-count "$((introduced - actionable))"
    output resolved-count "$(number .summary.resolved "$tmp/diff.json")"
    output unchanged-count "$(number .summary.unchanged "$tmp/diff.json")"
    output analyzed-target-count "$(jq -r '(.analysed // []) | length' "$tmp/diff.json")"
    output baseline-sha "$base_sha"
    output candidate-sha "$head_sha"
    run "$tmp/summary.md" "${dargs[@]}" --format markdown
    cat "$tmp/summary.md" >>"$summary"
    run "$tmp/annotations" "${dargs[@]}" --format github
    cat "$tmp/annotations"
    if [ -n "${INPUT_SARIF:-}" ]; then
        run "$INPUT_SARIF" "${dargs[@]}" --format sarif
        output sarif "$INPUT_SARIF"
    fi
else
    args=(check "$repo")
    if [ "${INPUT_ALL_DIRS:-true}" = "true" ] && [ -z "${INPUT_CWD:-}" ]; then
        args+=(--all-dirs)
    fi
    [ -z "${INPUT_CWD:-}" ] || args+=(--cwd "$INPUT_CWD")
    [ -z "${INPUT_PATH:-}" ] || args+=(--target "$INPUT_PATH")
    [ -z "${INPUT_FAIL_ON:-}" ] || args+=(--fail-on "$INPUT_FAIL_ON")
    output mode check
    run "$tmp/check.json" "${args[@]}" --format json
    final=$status
    output result "$([ "$final" -eq 0 ] && echo passed || echo failed)"
    output findings-count "$(jq -r '(.findings // []) | length' "$tmp/check.json")"
    output failing-count "$(number .failing "$tmp/check.json")"
    output accepted-count "$(number .summary.accepted "$tmp/check.json")"
    output candidate-sha "$(git -C "$repo" rev-parse --verify --quiet 'HEAD^{commit}' 2>/dev/null || printf '%s' "${GITHUB_SHA:-}")"
    run "$tmp/summary.md" "${args[@]}" --format markdown
    cat "$tmp/summary.md" >>"$summary"
    run "$tmp/annotations" "${args[@]}" --format github
    cat "$tmp/annotations"
    if [ -n "${INPUT_SARIF:-}" ]; then
        run "$INPUT_SARIF" "${args[@]}" --format sarif
        output sarif "$INPUT_SARIF"
    fi
fi

if [ "$final" -eq 1 ]; then
    echo "::error title=PlaybookDiff::$(escape "findings fail the run; see the job summary, or accept intended ones with playbookdiff check --accept ID --reason TEXT")"
fi
exit "$final"
