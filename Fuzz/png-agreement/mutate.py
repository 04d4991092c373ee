# A seeded corpus of damaged PNGs for measuring agreement with libpng
# (see Sources/GlimpseCodec/PNG/README.md, "Recovery"): bit flips, truncations,
# inserted bytes, alone or in pairs, of the ../shared corpus and bench PNGs that
# libpng (refdecode) decodes without an error or a warning. APNGs are left out:
# Glimpse composes the animation where libpng shows the default image. Half of
# the files get every complete chunk's CRC recomputed after the damage, so that
# the damage reaches the chunk parsers and the image data instead of stopping at
# the checksum.
# With a fourth argument `chunks`, every file instead gets 1-4 bit flips inside the
# length, type or data of chunks other than IDAT, CRCs recomputed: damage aimed at the
# chunk parsers and their checks, which whole-file damage rarely reaches.
# Usage: python3 Fuzz/png-agreement/mutate.py SEED COUNT OUTDIR [chunks]
# (expects /work/shared and /work/tools/refdecode, as on the project machine)
import random, os, sys, subprocess, struct, zlib
seed = int(sys.argv[1]); count = int(sys.argv[2]); out = sys.argv[3]
chunks_only = len(sys.argv) > 4 and sys.argv[4] == 'chunks'
rng = random.Random(seed)
src = []
for d in ['/work/shared/corpus/png/misc', '/work/shared/corpus/png/pngsuite', '/work/shared/bench/png']:
    for f in sorted(os.listdir(d)):
        p = os.path.join(d, f)
        if not f.lower().endswith('.png') or not os.path.isfile(p): continue
        if os.path.getsize(p) > 3_000_000: continue
        if b'acTL' in open(p, 'rb').read(): continue
        r = subprocess.run(['/work/tools/refdecode', '--iterations', '1', p], capture_output=True)
        if r.returncode == 0 and b'warning' not in r.stderr.lower():
            src.append(p)

def fix_crcs(b):
    # Every chunk that is complete gets the CRC of its type and data.
    i = 8
    while i + 12 <= len(b):
        n = struct.unpack('>I', bytes(b[i:i + 4]))[0]
        if n > len(b) - i - 12: break
        b[i + 8 + n:i + 12 + n] = struct.pack('>I', zlib.crc32(bytes(b[i + 4:i + 8 + n])) & 0xFFFFFFFF)
        i += 12 + n
    return b

def chunk_spans(b):
    # (start, end) of each non-IDAT chunk's length, type and data.
    spans, i = [], 8
    while i + 12 <= len(b):
        n = struct.unpack('>I', bytes(b[i:i + 4]))[0]
        if n > len(b) - i - 12: break
        if bytes(b[i + 4:i + 8]) != b'IDAT': spans.append((i, i + 8 + n))
        i += 12 + n
    return spans

big = [p for p in src if '/bench/' in p]
small = [p for p in src if '/bench/' not in p]
os.makedirs(out, exist_ok=True)
for i in range(count):
    p = rng.choice(big) if rng.random() < 0.04 else rng.choice(small)
    b = bytearray(open(p, 'rb').read())
    if chunks_only:
        spans = chunk_spans(b)
        for _ in range(rng.randint(1, 4)):
            start, end = rng.choice(spans)
            j = rng.randrange(start, end); b[j] ^= 1 << rng.randrange(8)
        b = fix_crcs(b)
        name = '%04d-chunkflip+crc-%s' % (i, os.path.basename(p))
        open(os.path.join(out, name), 'wb').write(b)
        continue
    kind = rng.choice(['flip', 'flip', 'trunc', 'insert', 'combo'])
    ops = [kind] if kind != 'combo' else [rng.choice(['flip', 'trunc', 'insert']) for _ in range(2)]
    for op in ops:
        if len(b) < 9: break
        if op == 'flip':
            for _ in range(rng.randint(1, 4)):
                j = rng.randrange(8, len(b)); b[j] ^= 1 << rng.randrange(8)
        elif op == 'trunc':
            b = b[:rng.randrange(8, len(b))]
        else:
            j = rng.randrange(8, len(b))
            b[j:j] = bytes(rng.choice([rng.randrange(256), 0xFF, 0x00]) for _ in range(rng.randint(1, 16)))
    crc = rng.random() < 0.5
    if crc: b = fix_crcs(b)
    name = '%04d-%s%s-%s' % (i, '+'.join(ops), '+crc' if crc else '', os.path.basename(p))
    open(os.path.join(out, name), 'wb').write(b)
print(len(src), 'sources;', count, 'files in', out)
