#!/usr/bin/env python3
"""Generates the VP8L (lossless WebP) fixtures in this folder.

Needs Pillow and libwebp's `cwebp` (Debian package `webp`). Each source image is
made here from a fixed seed, written as PNG to a temporary folder and encoded
with `cwebp -lossless -exact` (so transparent pixels keep their colour) at the
settings named in the output file. Tests compare the decoded pixels with libwebp
(refdecode) and with the source pixels, which lossless coding must keep.

    python3 Fixtures/webp-lossless/generate.py
"""
import os
import random
import subprocess
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def photo_like(width, height, seed, alpha):
    """Smooth gradients with noise and a few edges: the encoder picks many predictor modes."""
    rng = random.Random(seed)
    image = Image.new("RGBA", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            r = (x * 255 // max(1, width - 1) + rng.randint(-6, 6)) % 256
            g = (y * 255 // max(1, height - 1) + rng.randint(-6, 6)) % 256
            b = ((x + y) * 3 + (40 if (x // 7 + y // 5) % 2 else 0)) % 256
            a = 255 if not alpha else (x * 7 + y * 3) % 256
            pixels[x, y] = (r, g, b, a)
    return image


def palette_image(width, height, colors, seed):
    """`colors` distinct RGBA colours in blocks and noise: colour indexing with bundling."""
    rng = random.Random(seed)
    palette = [(rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.choice([0, 128, 255]))
               for _ in range(colors)]
    image = Image.new("RGBA", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            index = ((x // 3) + (y // 2) * 5) % colors if rng.random() < 0.97 else rng.randrange(colors)
            pixels[x, y] = palette[index]
    return image


def repetitive(width, height):
    """Repeated tiles and runs: LZ77 references at many distances and the colour cache."""
    rng = random.Random(7)
    tile = [(rng.randrange(256), rng.randrange(256), rng.randrange(256), 255) for _ in range(37)]
    image = Image.new("RGBA", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            pixels[x, y] = tile[(x * 3 + y * 11) % len(tile)] if (y // 9) % 2 else tile[(x // 4) % 5]
    return image


def encode(image, name, *options):
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "source.png")
        image.save(source)
        output = os.path.join(HERE, name)
        subprocess.run(["cwebp", "-quiet", "-lossless", "-exact", *options, source, "-o", output], check=True)
        image.save(os.path.join(HERE, name.replace(".webp", ".png")))


def main():
    encode(photo_like(67, 45, 1, alpha=False), "photo-67x45-z9.webp", "-z", "9")
    encode(photo_like(67, 45, 1, alpha=False), "photo-67x45-z0.webp", "-z", "0")
    encode(photo_like(64, 33, 2, alpha=True), "photo-alpha-64x33-z6.webp", "-z", "6")
    encode(photo_like(131, 7, 3, alpha=True), "photo-alpha-131x7-m4.webp", "-m", "4", "-q", "100")
    for colors, width in [(2, 61), (3, 35), (4, 33), (5, 19), (16, 23), (17, 21), (200, 40), (256, 64)]:
        encode(palette_image(width, 17, colors, colors), f"palette-{colors}-colors-{width}x17.webp", "-z", "1")
    encode(repetitive(97, 50), "repetitive-97x50-z9.webp", "-z", "9")
    encode(repetitive(97, 50), "repetitive-97x50-z3.webp", "-z", "3")
    encode(photo_like(1, 1, 4, alpha=True), "single-pixel.webp")
    encode(photo_like(1, 29, 5, alpha=False), "column-1x29.webp")
    encode(photo_like(29, 1, 6, alpha=True), "row-29x1.webp")


if __name__ == "__main__":
    main()
