#!/usr/bin/env python3
"""Re-encodes GIFs with `glimpse decode F -o OUT.gif` and checks that Glimpse,
giflib (`refdecode`, first frame) and Pillow (every frame) all show the frames
Glimpse decoded from the original. Prints one line per file; exits 1 on a mismatch.

Usage: python3 check_roundtrip.py GLIMPSE REFDECODE FILE.gif...
(needs Pillow and numpy; not run by the test suite.)
"""
import os
import subprocess
import sys
import tempfile

import numpy
from PIL import Image


def read_pam(path):
    data = open(path, "rb").read()
    end = data.index(b"ENDHDR\n") + 7
    fields = dict(line.split(" ", 1) for line in data[:end].decode().split("\n")[1:-2])
    width, height = int(fields["WIDTH"]), int(fields["HEIGHT"])
    return numpy.frombuffer(data[end:], dtype=numpy.uint8).reshape(height, width, 4)


def normalised(rgba):
    rgba = rgba.copy()
    rgba[rgba[..., 3] == 0] = 0
    return rgba


def glimpse_frames(glimpse, path, folder):
    subprocess.run([glimpse, "decode", path, "--all-frames", folder], check=True, capture_output=True)
    names = sorted(n for n in os.listdir(folder) if n.startswith("frame-"))
    frames = [normalised(read_pam(os.path.join(folder, n))) for n in names]
    for n in names:
        os.remove(os.path.join(folder, n))
    return frames


def pillow_frames(path):
    frames = []
    with Image.open(path) as image:
        for index in range(getattr(image, "n_frames", 1)):
            image.seek(index)
            frames.append(normalised(numpy.array(image.convert("RGBA"))))
    return frames


def same(a, b):
    return len(a) == len(b) and all(x.shape == y.shape and (x == y).all() for x, y in zip(a, b))


def main(glimpse, refdecode, files):
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        encoded = os.path.join(folder, "out.gif")
        dump = os.path.join(folder, "ref.pam")
        for path in files:
            original = glimpse_frames(glimpse, path, folder)
            subprocess.run([glimpse, "decode", path, "-o", encoded], check=True, capture_output=True)
            ours = same(original, glimpse_frames(glimpse, encoded, folder))
            try:
                pillow = same(original, pillow_frames(encoded))
            except Exception:  # noqa: BLE001 - a Pillow failure is a mismatch
                pillow = False
            subprocess.run([refdecode, "--iterations", "1", "--dump", dump, encoded], check=True, capture_output=True)
            giflib = (normalised(read_pam(dump)) == original[0]).all()
            ok = ours and pillow and giflib
            failed |= not ok
            print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(path)}: glimpse={ours} pillow={pillow} giflib={giflib} "
                  f"{os.path.getsize(path)} -> {os.path.getsize(encoded)} bytes")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
