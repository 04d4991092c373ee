#!/usr/bin/env python3
"""Records how Pillow composes every frame of the shared GIF corpus.

Writes pillow-corpus-frames.tsv: one line per frame,
    FILE <TAB> INDEX <TAB> CRC32
where CRC32 is zlib's CRC-32 of the frame as Pillow shows it
(`Image.seek(i)` then `convert("RGBA")`), with every fully transparent pixel
normalised to (0, 0, 0, 0) so that the invisible colour of transparent pixels
does not matter. A file Pillow cannot open gets one line `FILE <TAB> - <TAB> ERROR`.

With `--expected`, it instead writes the same kind of lines for the corpus's own
reference outputs: the peterdn per-frame PNGs (`expected/peterdn_frames`) and the
wuffs NIE frames of animated-red-blue, keyed by the GIF they belong to.

Usage: python3 pillow_corpus_frames.py ../../../shared/corpus/gif > pillow-corpus-frames.tsv
       python3 pillow_corpus_frames.py --expected ../../../shared/corpus/gif > corpus-expected-frames.tsv
(needs Pillow and numpy; the tests only read the .tsv files).
"""
import os
import sys
import zlib

import numpy
from PIL import Image

Image.MAX_IMAGE_PIXELS = 1 << 26


def frames(path):
    with Image.open(path) as image:
        index = 0
        while True:
            rgba = numpy.array(image.convert("RGBA"))
            rgba[rgba[..., 3] == 0] = 0
            yield index, zlib.crc32(rgba.tobytes())
            index += 1
            try:
                image.seek(index)
            except EOFError:
                return


def crc(rgba):
    rgba = rgba.copy()
    rgba[rgba[..., 3] == 0] = 0
    return f"{zlib.crc32(rgba.tobytes()):08x}"


def expected(folder):
    frames_dir = os.path.join(folder, "expected", "peterdn_frames")
    for name in sorted(os.listdir(frames_dir)):
        stem = name[:-4]
        gif, _, index = stem.rpartition("-")
        if not index.isdigit():
            gif, index = stem, "0"
        rgba = numpy.array(Image.open(os.path.join(frames_dir, name)).convert("RGBA"))
        print(f"peterdn_{gif}.gif\t{index}\t{crc(rgba)}")
    for index in range(4):
        path = os.path.join(folder, "expected", f"wuffs_animated-red-blue.{index:06d}.nie")
        data = open(path, "rb").read()
        width, height = int.from_bytes(data[8:12], "little"), int.from_bytes(data[12:16], "little")
        bgra = numpy.frombuffer(data[16:], dtype=numpy.uint8).reshape(height, width, 4)
        print(f"wuffs_animated-red-blue.gif\t{index}\t{crc(bgra[..., [2, 1, 0, 3]])}")


def main(folder):
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".gif"):
            continue
        try:
            lines = [f"{name}\t{i}\t{crc:08x}" for i, crc in frames(os.path.join(folder, name))]
        except Exception:  # noqa: BLE001 - any failure means "Pillow rejects it"
            lines = [f"{name}\t-\tERROR"]
        print("\n".join(lines))


if __name__ == "__main__":
    if sys.argv[1] == "--expected":
        expected(sys.argv[2])
    else:
        main(sys.argv[1])
