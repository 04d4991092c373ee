# A seeded corpus of damaged JPEGs for measuring agreement with libjpeg-turbo
# (see Sources/GlimpseCodec/JPEG/README.md, "Recovery"): bit flips, truncations,
# inserted bytes, alone or in pairs, of the ../shared corpus and bench JPEGs that
# refdecode decodes cleanly (arithmetic-coded ones left out: unsupported).
# Usage: python3 Fuzz/jpeg-agreement/mutate.py SEED COUNT OUTDIR
# (expects /work/shared and /work/tools/refdecode, as on the project machine)
import random, os, sys, subprocess
seed = int(sys.argv[1]); count = int(sys.argv[2]); out = sys.argv[3]
rng = random.Random(seed)
src = []
for d in ['/work/shared/corpus/jpeg', '/work/shared/bench/jpeg']:
    for f in sorted(os.listdir(d)):
        p = os.path.join(d, f)
        if not f.lower().endswith(('.jpg', '.jpeg')) or not os.path.isfile(p): continue
        if os.path.getsize(p) > 3_000_000: continue
        if b'\xff\xc9' in open(p, 'rb').read(4096) or b'\xff\xca' in open(p, 'rb').read(4096): continue  # arithmetic coding: unsupported by design
        if subprocess.run(['/work/tools/refdecode', '--iterations', '1', p], capture_output=True).returncode == 0:
            src.append(p)
big = [p for p in src if '/bench/' in p]
small = [p for p in src if '/bench/' not in p]
os.makedirs(out, exist_ok=True)
for i in range(count):
    p = rng.choice(big) if rng.random() < 0.04 else rng.choice(small)
    b = bytearray(open(p, 'rb').read())
    kind = rng.choice(['flip', 'flip', 'trunc', 'insert', 'combo'])
    ops = [kind] if kind != 'combo' else [rng.choice(['flip', 'trunc', 'insert']) for _ in range(2)]
    for op in ops:
        if len(b) < 4: break
        if op == 'flip':
            for _ in range(rng.randint(1, 4)):
                j = rng.randrange(2, len(b)); b[j] ^= 1 << rng.randrange(8)
        elif op == 'trunc':
            b = b[:rng.randrange(2, len(b))]
        else:
            j = rng.randrange(2, len(b))
            b[j:j] = bytes(rng.choice([rng.randrange(256), 0xFF, 0x00]) for _ in range(rng.randint(1, 16)))
    name = '%04d-%s-%s' % (i, '+'.join(ops), os.path.basename(p))
    open(os.path.join(out, name), 'wb').write(b)
print(len(src), 'sources;', count, 'files in', out)
