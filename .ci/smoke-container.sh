#!/usr/bin/env bash
# Minimal-container smoke test (run by .ci/run; needs root for mount and chroot).
#
# 1. Builds the codec-only `glimpse-codec-smoke` in release with --static-swift-stdlib (scratch
#    path .build-static, so the debug build in .build is untouched), and the `glimpse` CLI the
#    same way (SMOKE_CLI=release, the default: what docs/Dockerfile.example ships), or, as CI
#    does (SMOKE_CLI=debug-relink), relinks the debug objects of .build against the static
#    runtime: the same program and the same libraries in the root, without a second compile.
# 2. Codec-only stays lean: `ldd glimpse-codec-smoke` may list only libc, libm, libz, libstdc++,
#    libgcc_s and the loader, and its stripped size must stay within the budget (9.5 MB:
#    8 MB until the WebP encoder, ICC colour management and the AVIF container joined the
#    standard registries, which brought the program from 7.71 to 8.36 MB; 8.50 MB before it
#    was linked with --no-export-dynamic and --icf=safe, 8.15 MB since; 9.23 MB with AV1
#    intra decoding, whose tables' initialisers are half of its 1.06 MB: Benchmarks.md).
# 3. Builds an empty root holding only the stripped executables, exactly the shared libraries
#    `ldd` lists (and the loader), the CA certificates file, and a few fixture images; mounts
#    /proc in it as a container runtime does (the static Swift runtime reads its arguments
#    from /proc/self/cmdline); makes it read-only except /tmp; and runs the CLI in it through
#    `env -i chroot` (no HOME, no PATH, nothing): info, decode, thumbnail, fetch over HTTP and HTTPS from
#    a loopback server outside the root, fetch with no writable cache folder (one warning,
#    memory tier), fetch of a missing URL (an error line, not a crash).
#
# docs/Dockerfile.example ships the same file set on debian:bookworm-slim; this script also checks
# that the packages its runtime stage installs provide every library ldd lists.
#
# Environment: SCRATCH (default .build-static), CODEC_ONLY_BUDGET bytes (default 9500000),
# SMOKE_CLI (release or debug-relink; default release),
# KEEP_ROOT=1 leaves the root directory behind (unmounted) for inspection.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${SCRATCH:-.build-static}
budget=${CODEC_ONLY_BUDGET:-9500000}
cli_build=${SMOKE_CLI:-release}
started=$SECONDS

step() { printf '== %s (%ds)\n' "$*" "$((SECONDS - started))"; }
die() { printf 'smoke-container: FAIL: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (mount, chroot)"
chroot=$(command -v chroot) || die "chroot not found"

step "release build of the codec-only program, static Swift runtime"
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product glimpse-codec-smoke
codec_bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
case "$cli_build" in
release)
    step "release build of the CLI, static Swift runtime"
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product glimpse
    cli_bin=$codec_bin
    ;;
debug-relink)
    # `--static-swift-stdlib` changes only the link, so SwiftPM relinks the debug objects
    # of .build without compiling anything (about 20 s, where the release build of the CLI
    # takes minutes). The objects were compiled against the shared runtime's module files,
    # whose autolink entries name the shared Foundation, so the static archives Foundation
    # needs are named here: every static archive of the toolchain's runtime, in one group
    # (the linker takes only the members it needs; a toolchain that splits Foundation
    # further is still covered), and libcurl, which FoundationNetworking calls.
    step "static relink of the debug CLI"
    static_runtime=$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift_static/linux
    [ -d "$static_runtime" ] || die "no static Swift runtime at $static_runtime"
    group=(-Xlinker --start-group)
    for archive in "$static_runtime"/lib*.a; do
        library=$(basename "$archive" .a)
        group+=(-Xlinker "-l${library#lib}")
    done
    group+=(-Xlinker -lcurl -Xlinker --end-group)
    swift build --static-swift-stdlib --product glimpse "${group[@]}"
    cli_bin=$(swift build --show-bin-path)
    ;;
*) die "SMOKE_CLI must be release or debug-relink, not $cli_build" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/glimpse-smoke.XXXXXX")
root=$work/root
server_pid=

# Every mount this script makes lies under $root; unmount them innermost first, and delete the
# directory only once nothing is mounted under it (so a failed unmount can never make `rm -rf`
# reach through a bind mount into the host).
cleanup() {
    local status=$?
    set +e
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    local mounts
    mounts=$(awk -v root="$root" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r)
    for target in $mounts; do
        umount "$target" 2>/dev/null || umount -l "$target" || true
    done
    if awk -v root="$root" '$2 == root || index($2, root "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
        echo "smoke-container: mounts left under $root; not deleting $work" >&2
        status=1
    elif [ "${KEEP_ROOT:-0}" = 1 ]; then
        echo "smoke-container: kept $work"
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "codec-only: shared libraries and size"
allowed='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libz\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9]+)$'
extra=$(ldd "$codec_bin/glimpse-codec-smoke" | awk '{ print $1 }' | xargs -n1 basename | grep -Ev "$allowed" || true)
[ -z "$extra" ] || die "glimpse-codec-smoke links more than libc/libm/libz/libstdc++/libgcc_s: $(echo $extra)"
mkdir -p "$work/stripped"
strip -o "$work/stripped/glimpse" "$cli_bin/glimpse"
strip -o "$work/stripped/glimpse-codec-smoke" "$codec_bin/glimpse-codec-smoke"
size() { stat -c %s "$1"; }
printf 'size,%s,stripped,%d,bytes\n' "glimpse ($cli_build)" "$(size "$work/stripped/glimpse")" \
    glimpse-codec-smoke "$(size "$work/stripped/glimpse-codec-smoke")"
[ "$(size "$work/stripped/glimpse-codec-smoke")" -le "$budget" ] \
    || die "glimpse-codec-smoke is $(size "$work/stripped/glimpse-codec-smoke") bytes stripped, over the $budget budget"

step "docs/Dockerfile.example: its runtime packages provide every library ldd lists"
# The packages its runtime stage installs (read from the Dockerfile, so the two cannot drift
# apart), with their dependencies, plus what debian:bookworm-slim always has.
packages=$(sed -n 's/.*apt-get install -y --no-install-recommends \([^\\&]*\).*/\1/p' docs/Dockerfile.example | xargs)
[ -n "$packages" ] || die "no apt-get install line in docs/Dockerfile.example"
# shellcheck disable=SC2086 # one word per package
provided=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances $packages | grep -v '^ ' | sed 's/:.*//'; printf '%s\n' libc6 libgcc-s1 libstdc++6 zlib1g)
# dpkg knows a file by one of its names: the listed one or the resolved one, with or without /usr
# (merged /usr). One dpkg call for them all: each reads dpkg's whole database.
names() { local resolved; resolved=$(readlink -f "$1"); printf '%s\n' "$1" "${1#/usr}" "/usr$1" "$resolved" "${resolved#/usr}" "/usr$resolved"; }
libraries=$(ldd "$cli_bin/glimpse" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
# shellcheck disable=SC2046 # one word per path
owners=$(dpkg -S $(for library in $libraries; do names "$library"; done | sort -u) 2>/dev/null || true)
for library in $libraries; do
    package=$(names "$library" | while read -r name; do
        awk -v name="$name" '{ path = $0; sub(/^[^ ]* /, "", path) } path == name { sub(/:.*/, ""); print; exit }' <<< "$owners"
    done | head -1)
    [ -n "$package" ] || die "$library belongs to no Debian package"
    grep -qx "$package" <<< "$provided" || die "$library ($package) is not installed by docs/Dockerfile.example ($packages)"
done

step "empty root"
# /var/cache/glimpse/images exists but will be read-only: the harder case for `fetch`, where the
# disk cache opens and only writes would fail.
mkdir -p "$root/usr/local/bin" "$root/proc" "$root/tmp" "$root/images" "$root/etc/ssl/certs" "$work/writable" \
    "$root/var/cache/glimpse/images"
cp "$work/stripped/glimpse" "$work/stripped/glimpse-codec-smoke" "$root/usr/local/bin/"
# Exactly what ldd lists, at the path it resolved (the loader at its absolute path), symlinks
# followed: `name => /path (addr)` or `/loader (addr)`.
{ ldd "$cli_bin/glimpse"; ldd "$codec_bin/glimpse-codec-smoke"; } \
    | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u \
    | while read -r library; do
        mkdir -p "$root$(dirname "$library")"
        cp -L "$library" "$root$library"
    done
ca=/etc/ssl/certs/ca-certificates.crt
[ -f "$ca" ] || die "$ca missing (apt-get install ca-certificates)"
# The HTTPS check trusts a throwaway certificate for 127.0.0.1 through the copied bundle, so it
# proves that libcurl inside the root finds the bundle at the path a container has it.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
cat "$ca" "$work/cert.pem" > "$root$ca"
cp Fixtures/png/ct6-d08-seq.png Fixtures/jpeg/pillow-420.jpg Fixtures/gif/loop-forever.gif "$root/images/"
echo "files in the root: $(cd "$root" && find . -type f | wc -l), $(du -sh "$root" | cut -f1)"

step "loopback servers (HTTP, HTTPS) outside the root"
mkdir -p "$work/served"
cp "$root"/images/* "$work/served/"
python3 - "$work/served" "$work/cert.pem" "$work/key.pem" > "$work/ports" 2>"$work/server.log" <<'PYTHON' &
import functools, http.server, ssl, sys, threading
directory, cert, key = sys.argv[1:4]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=directory)
plain = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
secure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
secure.socket = context.wrap_socket(secure.socket, server_side=True)
threading.Thread(target=secure.serve_forever, daemon=True).start()
print(plain.server_port, secure.server_port, flush=True)
plain.serve_forever()
PYTHON
server_pid=$!
for _ in $(seq 50); do [ -s "$work/ports" ] && break; sleep 0.1; done
read -r http_port https_port < "$work/ports" || die "loopback servers did not start: $(cat "$work/server.log")"

step "mounts: read-only root, /proc, writable /tmp"
mount --bind "$root" "$root"
mount --make-private "$root"
mount -o remount,bind,ro "$root"
mount -t proc proc "$root/proc"
mount --bind "$work/writable" "$root/tmp"
if touch "$root/written" 2>/dev/null; then die "the root is writable"; fi
touch "$root/tmp/written" && rm "$root/tmp/written"

# Runs one command in the root with an empty environment (plus the given NAME=VALUE pairs);
# its standard output and error go to $work/out and $work/err. A signal (status > 128) fails.
in_root() {
    local status=0
    env -i "${environment[@]}" "$chroot" "$root" "$@" > "$work/out" 2> "$work/err" || status=$?
    sed 's/^/    /' "$work/out" "$work/err"
    [ "$status" -lt 128 ] || die "$* died of signal $((status - 128))"
    return "$status"
}
expect() { grep -Eq -- "$2" "$work/$1" || die "expected /$2/ in standard ${1/err/error}"; }
environment=()

step "glimpse info"
in_root /usr/local/bin/glimpse info /images/ct6-d08-seq.png /images/pillow-420.jpg /images/loop-forever.gif \
    || die "info failed"
expect out '^/images/ct6-d08-seq.png: png [0-9]+x[0-9]+'
expect out '^/images/pillow-420.jpg: jpeg 40x30'
expect out '^/images/loop-forever.gif: gif [0-9]+x[0-9]+ frames=[0-9]+'

step "glimpse decode"
in_root /usr/local/bin/glimpse decode /images/pillow-420.jpg -o /tmp/pillow-420.png || die "decode failed"
in_root /usr/local/bin/glimpse-codec-smoke /images/pillow-420.jpg || die "codec-only decode failed"
original=$(grep -Eo 'fnv1a=[0-9a-f]+' "$work/out")
in_root /usr/local/bin/glimpse-codec-smoke /tmp/pillow-420.png /tmp/again.png || die "codec-only decode failed"
expect out "$original"

step "glimpse thumbnail (JPEG encoder)"
in_root /usr/local/bin/glimpse thumbnail /images/pillow-420.jpg -o /tmp/thumb.jpg --size 16 || die "thumbnail failed"
expect out '^/images/pillow-420.jpg: ok 16x12 -> /tmp/thumb.jpg'
in_root /usr/local/bin/glimpse-codec-smoke /tmp/thumb.jpg || die "codec-only decode of the thumbnail failed"
expect out '^/tmp/thumb.jpg: jpeg 16x12 frames=1'

step "glimpse fetch, HTTP, disk cache in /tmp (no HOME: the temporary folder)"
url=http://127.0.0.1:$http_port/pillow-420.jpg
in_root /usr/local/bin/glimpse fetch "$url" || die "fetch failed"
expect out "^$url: ok tier=network JPEG 40x30"
[ -n "$(ls -A "$work/writable/glimpse/images" 2>/dev/null)" ] || die "no disk cache entries in /tmp/glimpse/images"
in_root /usr/local/bin/glimpse fetch "$url" || die "second fetch failed"
expect out "^$url: ok tier=disk JPEG 40x30"

step "glimpse fetch, HTTPS through the copied CA bundle"
url=https://127.0.0.1:$https_port/ct6-d08-seq.png
in_root /usr/local/bin/glimpse fetch --thumbnail 8x8 "$url" || die "HTTPS fetch failed"
expect out "^$url: ok tier=network PNG"

step "glimpse fetch, a read-only cache folder: one warning, memory tier"
environment=(XDG_CACHE_HOME=/var/cache)
url=http://127.0.0.1:$http_port/loop-forever.gif
in_root /usr/local/bin/glimpse fetch "$url" || die "fetch without a cache folder failed"
expect out "^$url: ok tier=network GIF"
[ "$(wc -l < "$work/err")" = 1 ] || die "expected exactly one line on standard error"
expect err '^warning: cache folder /var/cache/glimpse/images is not writable .*memory only$'
environment=()

step "glimpse fetch, a missing URL: an error line and status 1, not a crash"
url=http://127.0.0.1:$http_port/missing.png
status=0
in_root /usr/local/bin/glimpse fetch "$url" || status=$?
[ "$status" = 1 ] || die "fetch of a missing URL exited with $status, expected 1"
expect out "^$url: error"

step "passed"
