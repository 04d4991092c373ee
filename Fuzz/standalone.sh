#!/usr/bin/env bash
# Standalone fuzzing, no libFuzzer needed: replays Fuzz/Regressions and the
# seeds, then mutates for SECONDS split across the targets.
# Usage: Fuzz/standalone.sh TARGET|all SECONDS [--seed N]
set -euo pipefail
cd "$(dirname "$0")"
target=${1:-all} seconds=${2:-60}
shift 2 || true
swift build -c release --product fuzz-standalone --scratch-path .build-standalone >&2
mkdir -p work/crashes
exec .build-standalone/release/fuzz-standalone "$target" --seconds "$seconds" --crashes work/crashes "$@"
