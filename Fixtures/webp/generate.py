#!/usr/bin/env python3
"""Writes the WebP fixtures of Glimpse's tests and their expected frames.

The bitstreams come from libwebp's own encoder (`cwebp` from the Debian package
`webp`); the containers around them are assembled byte by byte here, so that
each container feature is exercised on purpose: odd payloads and their padding,
unknown chunks before and after the image and inside and between frames,
ICCP/EXIF/XMP metadata, ALPH with every filter, and animations whose frames
blend semi-transparent pixels over each other and are disposed to background.

expected.tsv holds one line per frame:
    FILE <TAB> INDEX <TAB> DURATION_MS <TAB> CRC32
CRC32 is zlib's CRC-32 of the straight RGBA8 canvas as libwebp gives it: for a
still image `dwebp -pam` (WebPDecodeRGBA), for an animation Pillow's frames,
which are libwebp's WebPAnimDecoder canvases (the animations here set the VP8X
alpha flag, so Pillow keeps the alpha). Run: python3 generate.py (needs Pillow
with WebP, cwebp and dwebp).
"""
import io
import os
import struct
import subprocess
import tempfile
import zlib

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def chunk(tag, payload, declared=None):
    size = len(payload) if declared is None else declared
    return tag + struct.pack("<I", size) + payload + (b"\0" if len(payload) % 2 else b"")


def riff(chunks):
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def vp8x(flags, width, height):
    return chunk(b"VP8X", bytes([flags, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))


def anmf(x, y, width, height, duration, dispose, blend, inner):
    bits = (1 if dispose else 0) | (0 if blend else 2)
    header = (x // 2).to_bytes(3, "little") + (y // 2).to_bytes(3, "little")
    header += (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    header += duration.to_bytes(3, "little") + bytes([bits])
    return chunk(b"ANMF", header + b"".join(inner))


def image_chunks(data):
    """The chunks after VP8X (or the single chunk) of a file cwebp wrote."""
    out, p = [], 12
    while p + 8 <= len(data):
        tag, size = data[p:p + 4], struct.unpack("<I", data[p + 4:p + 8])[0]
        out.append((tag, data[p + 8:p + 8 + size]))
        p += 8 + size + (size & 1)
    return [(t, b) for t, b in out if t != b"VP8X"]


def cwebp(image, *args):
    with tempfile.TemporaryDirectory() as tmp:
        source, target = os.path.join(tmp, "in.png"), os.path.join(tmp, "out.webp")
        image.save(source)
        subprocess.run(["cwebp", "-quiet", *args, source, "-o", target], check=True)
        return image_chunks(open(target, "rb").read())


def pattern(width, height, seed, alpha):
    image = Image.new("RGBA", (width, height))
    for y in range(height):
        for x in range(width):
            a = 255 if alpha is None else alpha(x, y)
            image.putpixel((x, y), ((x * 37 + seed * 11) % 256, (y * 53 + seed * 29) % 256, (x * y * 7 + seed) % 256, a))
    return image


def crc(data):
    return f"{zlib.crc32(data):08x}"


def still_frames(path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.pam")
        subprocess.run(["dwebp", "-quiet", "-pam", path, "-o", out], check=True)
        data = open(out, "rb").read()
        return [(0, crc(data[data.index(b"ENDHDR\n") + 7:]))]


def anim_frames(path):
    frames = []
    with Image.open(path) as image:
        assert image.mode == "RGBA", path
        for index in range(image.n_frames):
            image.seek(index)
            rgba = image.convert("RGBA").tobytes()  # loading the frame sets its duration
            frames.append((image.info.get("duration", 0), crc(rgba)))
    return frames


def main():
    files = {}
    lossless = cwebp(pattern(9, 7, 1, lambda x, y: (x * 31 + y * 17) % 256), "-lossless", "-exact")
    lossy = cwebp(pattern(33, 17, 2, None), "-q", "80")
    (vp8l_tag, vp8l), = lossless
    (vp8_tag, vp8), = lossy
    files["lossless-alpha.webp"] = (riff([chunk(b"VP8L", vp8l)]), "still")
    files["lossy.webp"] = (riff([chunk(b"VP8 ", vp8)]), "still")
    # Raw ALPH with each filter: any bytes are valid deltas, so they are pseudo-random (with
    # runs of extremes, for the gradient's clipping) and libwebp says what they decode to.
    opaque23 = cwebp(pattern(23, 11, 3, None), "-q", "70")[0][1]
    rng = 12345
    deltas = bytearray()
    for i in range(23 * 11):
        rng = (rng * 1103515245 + 12345) & 0x7FFFFFFF
        deltas.append((rng >> 16) & 0xFF if i % 7 else (0 if i % 2 else 255))
    for filt in range(4):
        for pre in (0, 1):
            header = bytes([filt << 2 | pre << 4])
            files[f"alph-filter-{filt}-pre-{pre}.webp"] = (
                riff([vp8x(0x10, 23, 11), chunk(b"ALPH", header + bytes(deltas)), chunk(b"VP8 ", opaque23)]), "still")
    # Lossless-compressed alpha (method 1) as cwebp writes it.
    chunks = cwebp(pattern(23, 11, 3, lambda x, y: (x * 23 + y * 41) % 256), "-q", "70", "-alpha_method", "1",
                   "-alpha_filter", "best")
    files["lossy-alpha-compressed.webp"] = (riff([vp8x(0x10, 23, 11)] + [chunk(t, b) for t, b in chunks]), "still")
    # Extended still with metadata, odd payloads (padding) and unknown chunks on both sides of the image.
    exif = b"MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0"
    icc = bytes(range(131))  # odd on purpose; its content is not parsed
    files["metadata.webp"] = (riff([
        vp8x(0x10 | 0x20 | 0x08 | 0x04, 9, 7), chunk(b"ICCP", icc), chunk(b"abcd", b"xyz"),
        chunk(b"VP8L", vp8l), chunk(b"EXIF", exif), chunk(b"XMP ", b"<x:xmpmeta/>!")]), "still")
    # Animations: semi-transparent lossless frames blended and disposed, a lossy frame with ALPH,
    # unknown chunks inside ANMF (after the image) and between frames.
    tiles = [cwebp(pattern(w, h, s, lambda x, y, s=s: (x * 61 + y * 13 + s * 40) % 256), "-lossless", "-exact")[0][1]
             for (w, h, s) in [(8, 6, 4), (4, 4, 5), (6, 2, 6), (2, 6, 7), (8, 6, 8)]]
    alpha_frame = cwebp(pattern(6, 4, 9, lambda x, y: (x * 40 + y * 70) % 256), "-q", "90", "-alpha_filter", "best", "-exact")
    frames = [
        anmf(0, 0, 8, 6, 40, False, True, [chunk(b"VP8L", tiles[0])]),
        anmf(2, 2, 4, 4, 50, True, True, [chunk(b"VP8L", tiles[1]), chunk(b"zzzz", b"q")]),
        chunk(b"junk", b"12345"),
        anmf(0, 2, 6, 2, 60, False, True, [chunk(b"VP8L", tiles[2])]),
        anmf(4, 0, 2, 6, 70, True, False, [chunk(b"VP8L", tiles[3])]),
        anmf(2, 0, 6, 4, 80, False, True, [chunk(t, b) for t, b in alpha_frame]),
        anmf(0, 0, 8, 6, 90, False, True, [chunk(b"VP8L", tiles[4])]),
    ]
    files["anim-blend.webp"] = (riff([vp8x(0x12, 8, 6), chunk(b"ANIM", struct.pack("<IH", 0xFF336699, 3))] + frames), "anim")
    # A full-canvas opaque lossy key frame disposed to background, then partial frames.
    opaque = cwebp(pattern(8, 6, 10, None), "-q", "60")[0][1]
    files["anim-dispose.webp"] = (riff([vp8x(0x12, 8, 6), chunk(b"ANIM", struct.pack("<IH", 0, 0)),
        anmf(0, 0, 8, 6, 10, True, True, [chunk(b"VP8 ", opaque)]),
        anmf(2, 2, 4, 4, 20, True, True, [chunk(b"VP8L", tiles[1])]),
        anmf(0, 2, 6, 2, 30, False, True, [chunk(b"VP8L", tiles[2])]),
        anmf(0, 0, 8, 6, 40, False, True, [chunk(b"VP8L", tiles[0])])]), "anim")
    lines = []
    for name, (data, kind) in sorted(files.items()):
        path = os.path.join(HERE, name)
        with open(path, "wb") as f:
            f.write(data)
        if kind == "still":
            for index, value in still_frames(path):
                lines.append(f"{name}\t{index}\t0\t{value}")
        else:
            for index, (duration, value) in enumerate(anim_frames(path)):
                lines.append(f"{name}\t{index}\t{duration}\t{value}")
    with open(os.path.join(HERE, "expected.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
