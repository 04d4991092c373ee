#!/usr/bin/env bash
# Standalone fuzzing, no libFuzzer needed: replays Fuzz/Regressions and the
# seeds, then mutates for SECONDS split across the targets.
# Usage: Fuzz/standalone.sh TARGET|all SECONDS [--seed N]
set -euo pipefail
cd "$(dirname "$0")"
target=${1:-all} seconds=${2:-60}
shift 2 || true
build() { swift build -c release --product fuzz-standalone --scratch-path .build-standalone >&2; }
# A stale cache of the path dependency (root files added or removed) needs one clean rebuild.
if ! build; then
    echo "build failed; retrying once with a clean .build-standalone" >&2
    rm -rf .build-standalone
    build
fi
mkdir -p work/crashes
exec .build-standalone/release/fuzz-standalone "$target" --seconds "$seconds" --crashes work/crashes "$@"
