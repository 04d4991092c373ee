#!/usr/bin/env bash
# Builds the libFuzzer harness with AddressSanitizer and runs one target.
# Usage: Fuzz/run.sh TARGET SECONDS [more libFuzzer flags]
# TARGET: png jpeg gif webp avif sniff incremental roundtrip icc, or the differential jpeg-diff png-diff gif-diff. See Fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")"
if [ $# -lt 2 ]; then
    echo "usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags]" >&2
    exit 2
fi
target=$1 seconds=$2
shift 2
case "$target" in png|jpeg|gif|webp|avif|sniff|incremental|roundtrip|icc|jpeg-diff|png-diff|gif-diff) ;; *) echo "unknown target $target" >&2; exit 2 ;; esac
# A differential target is seeded and guided like its format's plain target.
format=${target%-diff}

# -parse-as-library: libFuzzer provides main(); the Swift file only exports LLVMFuzzerTestOneInput.
build() {
    swift build -c release --product fuzz-libfuzzer --scratch-path .build-libfuzzer \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
}
# SwiftPM's cache of the path dependency goes stale when root package files are added or
# removed ("missing inputs"): one clean rebuild fixes that; a second failure is real.
if ! build; then
    echo "build failed; retrying once with a clean .build-libfuzzer" >&2
    rm -rf .build-libfuzzer
    build
fi
binary=.build-libfuzzer/release/fuzz-libfuzzer

work=work/$target
mkdir -p "$work/corpus" "$work/crashes"
# ../shared beside the repository, or ../../shared from a worktree (wt/<branch>).
shared=../../shared
[ -d "$shared/corpus" ] || shared=../../../shared
seeds=(../Fixtures Regressions/"$target")
[ -d ../../shared/corpus ] && seeds+=(../../shared/corpus)
# Debian's ICC profiles seed the icc target.
if [ "$target" = icc ]; then
    for dir in /usr/share/color/icc /usr/share/ghostscript; do [ -d "$dir" ] && seeds+=("$dir"); done
fi
if [ "$format" != "$target" ]; then
    # Differential targets start from their own format's files only.
    seeds=()
    for dir in ../Fixtures/"$format" Regressions/"$target" Regressions/"$format" "$shared/corpus/$format"; do
        [ -d "$dir" ] && seeds+=("$dir")
    done
fi
dictionary=()
[ -f "Dictionaries/$format.dict" ] && dictionary=(-dict="Dictionaries/$format.dict")

# One input: at most 256 KiB long, 256 MiB in a single allocation and 2 s of
# time (ASan slows decoding about 2x; the decoders' own limits keep a clean build
# near 1 s). Longer inputs only cost linear time (the incremental target decodes
# twice, once in small pieces) and turned up as timeouts without finding anything.
GLIMPSE_FUZZ_TARGET=$target exec "$binary" \
    -max_total_time="$seconds" -max_len=262144 -timeout=2 -malloc_limit_mb=256 -rss_limit_mb=2048 \
    -artifact_prefix="$work/crashes/" -print_final_stats=1 "${dictionary[@]}" "$@" \
    "$work/corpus" "${seeds[@]}"
