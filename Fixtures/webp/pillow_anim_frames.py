#!/usr/bin/env python3
"""Records how libwebp's WebPAnimDecoder composes every frame of the shared WebP animations.

Pillow reads animated WebP through WebPAnimDecoder (libwebp's src/demux/anim_decode.c),
so `Image.seek(i)` then `convert("RGBA")` is libwebp's composed canvas for frame i.
Writes one line per frame:
    FILE <TAB> INDEX <TAB> DURATION_MS <TAB> CRC32
where FILE is relative to ../shared (corpus/webp/anim/…, bench/webp/…) and CRC32 is
zlib's CRC-32 of the RGBA8 canvas, every byte as decoded (transparent pixels keep
their colour: WebPAnimDecoder's output is exact). A file Pillow cannot open gets one
line `FILE <TAB> - <TAB> - <TAB> ERROR`. A last line per file `FILE <TAB> loop <TAB> N <TAB> MODE`
gives the ANIM loop count and Pillow's mode: "RGB" when the VP8X alpha flag is clear, and then
Pillow drops libwebp's alpha (it reads the canvas as RGBX), so its frames are opaque where
WebPAnimDecoder's canvas is transparent; the tests make the same change before comparing.

Usage: python3 pillow_anim_frames.py ../../../shared > pillow-anim-frames.tsv
(needs Pillow built with WebP; the tests only read the .tsv file).
"""
import glob
import os
import sys
import zlib

from PIL import Image

Image.MAX_IMAGE_PIXELS = 1 << 28


def main(shared):
    paths = sorted(glob.glob(os.path.join(shared, "corpus/webp/anim/*.webp")))
    paths += sorted(glob.glob(os.path.join(shared, "bench/webp/pan-*.webp")))
    for path in paths:
        name = os.path.relpath(path, shared)
        try:
            with Image.open(path) as image:
                lines = []
                for index in range(getattr(image, "n_frames", 1)):
                    image.seek(index)
                    rgba = image.convert("RGBA").tobytes()
                    lines.append(f"{name}\t{index}\t{image.info.get('duration', 0)}\t{zlib.crc32(rgba):08x}")
                lines.append(f"{name}\tloop\t{image.info.get('loop', 1)}\t{image.mode}")
        except Exception:  # noqa: BLE001 - any failure is recorded as a rejection
            lines = [f"{name}\t-\t-\tERROR"]
        print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1])
