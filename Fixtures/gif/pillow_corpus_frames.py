#!/usr/bin/env python3
"""Records how Pillow composes every frame of the shared GIF corpus.

Writes pillow-corpus-frames.tsv: one line per frame,
    FILE <TAB> INDEX <TAB> CRC32
where CRC32 is zlib's CRC-32 of the frame as Pillow shows it
(`Image.seek(i)` then `convert("RGBA")`), with every fully transparent pixel
normalised to (0, 0, 0, 0) so that the invisible colour of transparent pixels
does not matter. A file Pillow cannot open gets one line `FILE <TAB> - <TAB> ERROR`.

Usage: python3 pillow_corpus_frames.py ../../../shared/corpus/gif > pillow-corpus-frames.tsv
(needs Pillow and numpy; the tests only read the .tsv).
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
    main(sys.argv[1])
