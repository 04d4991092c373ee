#!/usr/bin/env bash
# Fails when Swift code imports a C library outside a fenced block, or uses a spelling that
# only glibc has, outside a file fenced for every platform. A fenced file imports its C library
# as
#     #if canImport(Glibc) / import Glibc / #elseif canImport(Musl) / import Musl /
#     #elseif canImport(Darwin) / import Darwin / #endif
# and resolves the platform spellings itself (README: "Platforms").
set -euo pipefail
cd "$(dirname "$0")/.."

# glibc-only spellings: stat's time fields (Darwin: st_mtimespec), the imported enum types'
# rawValue (Darwin and musl: plain integers), Linux-only flags and glibc's priority type.
glibc_only='\bst_[mca]tim\b|SOCK_(STREAM|DGRAM)\.rawValue|\bMSG_NOSIGNAL\b|__priority_which_t|\bO_NOATIME\b|\bO_TMPFILE\b|PRIO_PROCESS\.rawValue|__sigaction_handler'

failures=0
while IFS= read -r -d '' file; do
    # Comments may name anything.
    code=$(sed -e 's://.*$::' "$file")
    fenced=false
    if grep -q 'canImport(Glibc)' <<<"$code" && grep -q 'canImport(Musl)' <<<"$code" \
        && grep -q 'canImport(Darwin)' <<<"$code"; then
        fenced=true
    fi
    if grep -qE '^\s*import (Glibc|Musl|Darwin)\b' <<<"$code"; then
        # Every C-library import sits directly under its own canImport line.
        unguarded=$(awk '
            /^[[:space:]]*#(if|elseif)[[:space:]]+canImport\((Glibc|Musl|Darwin)\)/ { guard = $0; next }
            /^[[:space:]]*import[[:space:]]+(Glibc|Musl|Darwin)([[:space:]]|$)/ {
                module = $2
                if (index(guard, "canImport(" module ")") == 0) print FILENAME ":" NR ": " $0
                guard = ""; next
            }
            { guard = "" }' "$file")
        if [ -n "$unguarded" ]; then
            echo "unfenced C-library import:"; echo "$unguarded"; failures=$((failures + 1))
        fi
        if ! $fenced; then
            echo "$file: imports a C library without Glibc, Musl and Darwin branches"; failures=$((failures + 1))
        fi
    fi
    if ! $fenced; then
        hits=$(grep -nE "$glibc_only" <<<"$code" || true)
        if [ -n "$hits" ]; then
            echo "$file: glibc-only spelling outside a fenced file:"; echo "$hits"; failures=$((failures + 1))
        fi
    fi
done < <(find Sources Tests Fuzz Examples -name '*.swift' -not -path '*/.build*' -print0 2>/dev/null)

if [ "$failures" -gt 0 ]; then
    echo "portability lint: $failures problem(s)"
    exit 1
fi
echo "portability lint: clean"
