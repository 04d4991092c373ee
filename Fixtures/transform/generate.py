#!/usr/bin/env python3
"""Generates the resize reference fixtures for Tests/GlimpseCodecTests/Transform.

A small smooth RGBA test image is resized with Pillow's LANCZOS filter (which
premultiplies alpha for RGBA images, as Glimpse does), independently of
Glimpse's own code. Both are written as PAM (P7, RGB_ALPHA, MAXVAL 255) so the
tests need no PNG decoder. Run from anywhere: `python3 generate.py`
(requires Pillow: `pip install pillow`).
"""
import math
import os
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def write_pam(path, image):
    image = image.convert("RGBA")
    header = (f"P7\nWIDTH {image.width}\nHEIGHT {image.height}\nDEPTH 4\n"
              f"MAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n").encode()
    with open(path, "wb") as f:
        f.write(header + image.tobytes())


def gradient(width, height, with_alpha):
    image = Image.new("RGBA", (width, height))
    pixels = []
    for y in range(height):
        for x in range(width):
            r = round(127.5 + 120 * math.sin(x / 6.0))
            g = round(255 * y / (height - 1))
            b = round(127.5 + 120 * math.cos((x + y) / 9.0))
            # An alpha ramp, never below 160, for the premultiplication path.
            a = round(160 + 95 * x / (width - 1)) if with_alpha else 255
            pixels.append((r, g, b, a))
    image.putdata(pixels)
    return image


# Opaque: Glimpse must match within ±2 on every channel.
source = gradient(64, 48, with_alpha=False)
write_pam(os.path.join(HERE, "gradient-64x48.pam"), source)
write_pam(os.path.join(HERE, "gradient-64x48-lanczos-20x15.pam"),
          source.resize((20, 15), Image.Resampling.LANCZOS))
write_pam(os.path.join(HERE, "gradient-64x48-lanczos-100x75.pam"),
          source.resize((100, 75), Image.Resampling.LANCZOS))

# Translucent: Pillow premultiplies into 8 bits and un-premultiplies with a
# truncating division, which biases its colour low by up to ~3 levels where
# alpha is near 160; the tests allow for that on colour, not on alpha.
source = gradient(64, 48, with_alpha=True)
write_pam(os.path.join(HERE, "gradient-alpha-64x48.pam"), source)
write_pam(os.path.join(HERE, "gradient-alpha-64x48-lanczos-20x15.pam"),
          source.resize((20, 15), Image.Resampling.LANCZOS))
write_pam(os.path.join(HERE, "gradient-alpha-64x48-lanczos-100x75.pam"),
          source.resize((100, 75), Image.Resampling.LANCZOS))


def pattern(width, height):
    """An integer-only pattern (ramps plus a triangle wave) that the Swift test
    rebuilds byte for byte, so the large source need not be committed."""
    image = Image.new("RGBA", (width, height))
    pixels = []
    for y in range(height):
        for x in range(width):
            t = (x * 3 + y) % 64
            wave = t * 8 if t < 32 else (63 - t) * 8
            pixels.append((x * 255 // (width - 1), y * 255 // (height - 1), wave, 255))
    image.putdata(pixels)
    return image


# A 10x reduction: exact Lanczos, and Pillow's reducing_gap=3 (box pre-reduction
# by 3, then Lanczos), the counterpart of Glimpse's default `reducingGap: 3`.
source = pattern(400, 300)
write_pam(os.path.join(HERE, "pattern-400x300-lanczos-40x30.pam"),
          source.resize((40, 30), Image.Resampling.LANCZOS))
write_pam(os.path.join(HERE, "pattern-400x300-lanczos-gap3-40x30.pam"),
          source.resize((40, 30), Image.Resampling.LANCZOS, reducing_gap=3.0))
