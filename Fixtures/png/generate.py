#!/usr/bin/env python3
"""Generates the PNG/APNG test fixtures in this folder, with the expected
decoded pixels of each one, using only the Python standard library.

The writer here is independent of Glimpse's encoder: it packs samples at every
bit depth, applies all five filter types (cycling per row), writes Adam7 passes,
splits the zlib stream over several IDAT chunks (one-byte chunks included) and
composes APNG frames following the APNG specification, so the expected outputs
are a second implementation to check the decoder against.

Outputs, for each fixture NAME:
  NAME.png             the file
  NAME.rgba8.pam       expected RGBA8 output (16-bit samples keep the high byte)
  NAME.rgba16.pam      expected RGBA16 output, for 16-bit sources
  NAME.frame-K.pam     expected composed APNG frame K (RGBA8)

Run: python3 Fixtures/png/generate.py   (rewrites the files in place)
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def sample(x, y, c, seed, depth):
    """Deterministic pseudo-random sample with some smooth structure."""
    v = (x * 7 + y * 13 + c * 29 + seed * 101) ^ ((x * y + seed) * 2654435761 >> 7)
    if (x + y + c) % 3 == 0:
        v = x * 37 + y * 11 + c * 5
    return v % (1 << depth)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, prior, bpp):
    out = bytearray(len(row))
    for i in range(len(row)):
        a = row[i - bpp] if i >= bpp else 0
        b = prior[i]
        c = prior[i - bpp] if i >= bpp else 0
        pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out[i] = (row[i] - pred) & 0xFF
    return bytes(out)


def pack(samples, depth):
    """Packs a row of samples (already per channel) at `depth` bits."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out = bytearray()
    per = 8 // depth
    for i in range(0, len(samples), per):
        byte = 0
        for k, s in enumerate(samples[i:i + per]):
            byte |= s << (8 - depth * (k + 1))
        out.append(byte)
    return bytes(out)


def scanlines(pixels, width, height, depth, channels, interlaced, filter_offset=0):
    """pixels[y][x] is a tuple of channel samples."""
    bpp = max(1, channels * depth // 8)
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    out = bytearray()
    row_index = filter_offset
    for (x0, y0, dx, dy) in passes:
        xs = list(range(x0, width, dx))
        ys = list(range(y0, height, dy))
        if not xs or not ys:
            continue
        prior = bytes(len(pack([0] * len(xs) * channels, depth)))
        for y in ys:
            row = pack([s for x in xs for s in pixels[y][x]], depth)
            kind = row_index % 5
            row_index += 1
            out.append(kind)
            out += filter_row(kind, row, prior, bpp)
            prior = row
    return bytes(out)


def split_idat(data, split):
    if split == "one-byte":
        return [data[i:i + 1] for i in range(len(data))]
    if split == "several":
        sizes, parts, i, n = [1, 5, 17, 64], [], 0, 0
        while i < len(data):
            parts.append(data[i:i + sizes[n % 4]])
            i += sizes[n % 4]
            n += 1
        return parts
    return [data]


def expand(pixel, color_type, depth, palette, trns, wide):
    """The RGBA value a decoder must produce (8 or 16 bits)."""
    top = 65535 if wide else 255
    def scale(v):
        if depth == 16:
            return v if wide else v >> 8
        return v * 255 // ((1 << depth) - 1)
    if color_type == 3:
        r, g, b = palette[pixel[0]]
        a = trns[pixel[0]] if trns is not None and pixel[0] < len(trns) else 255
        return (r, g, b, a)
    if color_type == 0:
        g = scale(pixel[0])
        a = 0 if trns is not None and pixel[0] == trns else top
        return (g, g, g, a)
    if color_type == 4:
        g = scale(pixel[0])
        return (g, g, g, scale(pixel[1]))
    if color_type == 2:
        a = 0 if trns is not None and tuple(pixel) == trns else top
        return tuple(scale(v) for v in pixel) + (a,)
    return tuple(scale(v) for v in pixel)


def pam(width, height, rgba, wide):
    header = "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL %d\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (width, height, 65535 if wide else 255)
    body = bytearray()
    for row in rgba:
        for px in row:
            for v in px:
                body += struct.pack(">H", v) if wide else bytes([v])
    return header.encode() + bytes(body)


def still(name, width, height, color_type, depth, interlaced=False, trns=None, split="single", seed=1):
    channels = CHANNELS[color_type]
    palette = None
    if color_type == 3:
        count = min(1 << depth, 256)
        palette = [((i * 67 + seed) % 256, (i * 151) % 256, (255 - i * 13) % 256) for i in range(count)]
    pixels = [[tuple(sample(x, y, c, seed, depth) for c in range(channels)) for x in range(width)] for y in range(height)]
    if color_type == 0 and trns is not None:
        pixels[0][0] = (trns,)  # make sure the key occurs
    if color_type == 2 and trns is not None:
        pixels[0][0] = trns
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlaced else 0))
    if palette:
        png += chunk(b"PLTE", b"".join(bytes(p) for p in palette))
    if trns is not None:
        if color_type == 0:
            png += chunk(b"tRNS", struct.pack(">H", trns))
        elif color_type == 2:
            png += chunk(b"tRNS", struct.pack(">HHH", *trns))
        else:
            png += chunk(b"tRNS", bytes(trns))
    data = zlib.compress(scanlines(pixels, width, height, depth, channels, interlaced), 9)
    for part in split_idat(data, split):
        png += chunk(b"IDAT", part)
    png += chunk(b"IEND", b"")
    write(name + ".png", png)
    write(name + ".rgba8.pam", pam(width, height, [[expand(p, color_type, depth, palette, trns, False) for p in row] for row in pixels], False))
    if depth == 16:
        write(name + ".rgba16.pam", pam(width, height, [[expand(p, color_type, depth, palette, trns, True) for p in row] for row in pixels], True))


def compose_over(src, dst):
    sa = src[3]
    if sa == 255:
        return src
    if sa == 0:
        return dst
    u = sa * 255
    v = (255 - sa) * dst[3]
    al = u + v
    return tuple((src[i] * u + dst[i] * v) // al for i in range(3)) + (al // 255,)


def animation(name, width, height, frames, plays=0, idat_is_frame=True):
    """frames: list of (x, y, w, h, dispose, blend, delay_num, delay_den, pixel function)."""
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"acTL", struct.pack(">II", len(frames), plays))
    seq = 0
    canvas = [[(0, 0, 0, 0)] * width for _ in range(height)]
    shown = []
    for k, (x, y, w, h, dispose, blend, num, den, fn) in enumerate(frames):
        pixels = [[fn(i, j) for i in range(w)] for j in range(h)]
        fctl = chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, w, h, x, y, num, den, dispose, blend))
        seq += 1
        data = zlib.compress(scanlines(pixels, w, h, 8, 4, False, filter_offset=k), 9)
        if k == 0 and not idat_is_frame:
            png += chunk(b"IDAT", zlib.compress(scanlines([[(255, 0, 0, 255)] * width] * height, width, height, 8, 4, False)))
        if k == 0 and idat_is_frame:
            png += fctl + chunk(b"IDAT", data)
        else:
            png += fctl
            for part in split_idat(data, "several" if k % 2 else "single"):
                png += chunk(b"fdAT", struct.pack(">I", seq) + part)
                seq += 1
        saved = [row[:] for row in canvas]
        for j in range(h):
            for i in range(w):
                src = pixels[j][i]
                canvas[y + j][x + i] = src if blend == 0 else compose_over(src, canvas[y + j][x + i])
        shown.append([row[:] for row in canvas])
        if dispose == 2 and k == 0:
            dispose = 1
        if dispose == 1:
            for j in range(h):
                for i in range(w):
                    canvas[y + j][x + i] = (0, 0, 0, 0)
        elif dispose == 2:
            for j in range(h):
                for i in range(w):
                    canvas[y + j][x + i] = saved[y + j][x + i]
    png += chunk(b"IEND", b"")
    write(name + ".png", png)
    for k, frame in enumerate(shown):
        write("%s.frame-%d.pam" % (name, k), pam(width, height, frame, False))


def write(filename, data):
    with open(os.path.join(HERE, filename), "wb") as f:
        f.write(data)


def main():
    for old in os.listdir(HERE):
        if old.endswith(".png") or old.endswith(".pam"):
            os.remove(os.path.join(HERE, old))
    # Every colour type x bit depth x interlace, at an odd size.
    for color_type, depths in [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]:
        for depth in depths:
            for interlaced in (False, True):
                still("ct%d-d%02d-%s" % (color_type, depth, "adam7" if interlaced else "seq"), 33, 7, color_type, depth,
                      interlaced, seed=color_type * 17 + depth)
    # Odd sizes, including those smaller than an Adam7 block.
    for (w, h) in [(1, 1), (1, 9), (9, 1), (2, 3), (5, 5), (8, 8), (9, 9), (17, 3)]:
        still("size-%dx%d-adam7" % (w, h), w, h, 6, 8, True, seed=w * 31 + h)
        still("size-%dx%d-seq" % (w, h), w, h, 3, 2, False, seed=w * 31 + h)
    # tRNS on grey, RGB and palette.
    still("trns-gray8", 12, 10, 0, 8, trns=7)
    still("trns-gray2-adam7", 12, 10, 0, 2, True, trns=1)
    still("trns-gray16", 12, 10, 0, 16, trns=300)
    still("trns-rgb8", 12, 10, 2, 8, trns=(1, 2, 3))
    still("trns-rgb16", 12, 10, 2, 16, trns=(1000, 2000, 3000))
    still("trns-palette4", 12, 10, 3, 4, trns=[0, 64, 128, 200])
    # The zlib stream split over many IDAT chunks.
    still("multi-idat-several", 20, 20, 2, 8, split="several")
    still("multi-idat-one-byte", 9, 9, 6, 16, True, split="one-byte")

    solid = lambda c: (lambda i, j: c)
    check = lambda a, b: (lambda i, j: a if (i + j) % 2 else b)
    half = (0, 0, 255, 128)
    red, green, blue = (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)
    # dispose_op x blend_op, with sub-regions (x, y, w, h, dispose, blend, num, den, pixels).
    animation("apng-dispose-none", 16, 12, [
        (0, 0, 16, 12, 0, 0, 1, 10, solid(red)),
        (2, 3, 5, 4, 0, 0, 20, 100, solid(green)),
        (8, 6, 8, 6, 0, 1, 3, 0, check(half, blue))])
    animation("apng-dispose-background", 16, 12, [
        (0, 0, 16, 12, 1, 0, 1, 10, check(red, half)),
        (4, 4, 6, 6, 1, 1, 1, 10, solid(half)),
        (1, 1, 3, 3, 0, 1, 1, 10, solid(blue))])
    animation("apng-dispose-previous", 16, 12, [
        (0, 0, 16, 12, 0, 0, 1, 10, solid(blue)),
        (3, 2, 10, 8, 2, 1, 1, 10, check(half, (10, 20, 30, 0))),
        (0, 0, 4, 4, 2, 0, 1, 10, solid(green)),
        (5, 5, 2, 2, 0, 1, 1, 10, solid((200, 100, 50, 77)))])
    animation("apng-previous-first", 16, 12, [
        (0, 0, 16, 12, 2, 0, 1, 10, solid(red)),
        (0, 0, 8, 6, 0, 1, 65535, 65535, solid(half))], plays=3)
    animation("apng-skip-default", 16, 12, [
        (0, 0, 16, 12, 0, 0, 0, 1, solid(green)),
        (6, 6, 10, 6, 1, 0, 1, 1, check(half, blue))], idat_is_frame=False)


if __name__ == "__main__":
    main()
