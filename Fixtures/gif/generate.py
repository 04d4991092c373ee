#!/usr/bin/env python3
"""Writes the GIF fixtures of Glimpse's tests and their expected frames.

Every file is built byte by byte here (our own little writer and LZW encoder),
so that each feature is exercised on purpose: all four disposal methods,
transparency, interlacing, local and missing colour tables, frames partly or
wholly outside the canvas, zero-size frames, loop counts, a full LZW table
without a clear code, LZW minimum code size 1, short and truncated pixel data.

expected.tsv holds, for each fixture, one line per frame:
    FILE <TAB> INDEX <TAB> CRC32 <TAB> DELAY_MS <TAB> COMPLETE
CRC32 is zlib's CRC-32 of the composed RGBA canvas computed by compose() below,
an independent, deliberately simple implementation of the browser rules:
the canvas starts transparent; disposal 2 makes the frame's rectangle
transparent; disposal 3 restores what the rectangle held before; indices past
the colour table and the transparent index leave the canvas alone; a frame
without any colour table is opaque black; frames are clipped to the canvas.
Loop counts go to loops.tsv as FILE <TAB> LOOPCOUNT (plays; 0 = forever).

Run: python3 generate.py   (Python 3 only; Pillow, when installed, is used to
print where Pillow agrees, for information.)
"""
import os
import random
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def lzw_encode(indices, min_code_size, clear_when_full=True, end_code=True):
    """GIF LZW (GIF89a Appendix F). Code widths follow the decoder's rule."""
    clear = 1 << min_code_size
    end = clear + 1
    out = bytearray()
    acc = 0
    nbits = 0

    def emit(code, size):
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    def reset():
        return {bytes([i]): i for i in range(clear)}, end + 1, min_code_size + 1, end + 1, True

    table, next_code, size, dnext, first = reset()
    emit(clear, size)
    data = bytes(indices)
    i = 0
    while i < len(data):
        # Longest match.
        j = i + 1
        while j <= len(data) and data[i:j] in table:
            j += 1
        string = data[i:j - 1]
        emit(table[string], size)
        # The decoder adds an entry after every code but the first after a clear.
        if not first and dnext < 4096:
            dnext += 1
        if dnext == (1 << size) and size < 12:
            size += 1
        first = False
        if j - 1 < len(data):
            if next_code < 4096:
                table[data[i:j]] = next_code
                next_code += 1
            elif clear_when_full:
                emit(clear, size)
                table, next_code, size, dnext, first = reset()
        i = j - 1
    if end_code:
        emit(end, size)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


def sub_blocks(data):
    out = bytearray()
    for k in range(0, len(data), 255):
        chunk = data[k:k + 255]
        out += bytes([len(chunk)]) + chunk
    return bytes(out) + b"\x00"


def le16(v):
    return bytes([v & 0xFF, (v >> 8) & 0xFF])


def padded_size(count):
    size = 2
    while size < count:
        size *= 2
    return size


def table_bytes(colors):
    size = 2
    while size < len(colors):
        size *= 2
    flat = bytearray()
    for c in colors + [(0, 0, 0)] * (size - len(colors)):
        flat += bytes(c)
    return bytes(flat), (size.bit_length() - 2)


def interlace_order(height):
    rows = []
    for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)):
        rows += list(range(start, height, step))
    return rows


class Frame:
    def __init__(self, x, y, w, h, pixels, disposal=0, transparent=None, delay=0, local=None,
                 interlaced=False, min_code_size=None, stored_pixels=None, clear_when_full=True,
                 table_entries=None, before=b""):
        self.__dict__.update(locals())
        del self.__dict__["self"]


def write_gif(width, height, global_colors, frames, loops=(), junk=b"", trailer=True, cut=None,
              background=0):
    out = bytearray(b"GIF89a" + le16(width) + le16(height))
    if global_colors is not None:
        flat, bits = table_bytes(global_colors)
        out += bytes([0x80 | 0x70 | bits, background, 0]) + flat
    else:
        out += bytes([0x00, background, 0])
    for value in loops:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + le16(value) + b"\x00"
    for f in frames:
        out += f.before
        packed = (f.disposal << 2) | (1 if f.transparent is not None else 0)
        out += b"\x21\xF9\x04" + bytes([packed]) + le16(f.delay) + bytes([f.transparent or 0, 0])
        flags = 0x40 if f.interlaced else 0
        local = b""
        if f.local is not None:
            local, bits = table_bytes(f.local)
            flags |= 0x80 | bits
        out += b"\x2C" + le16(f.x) + le16(f.y) + le16(f.w) + le16(f.h) + bytes([flags]) + local
        stored = f.stored_pixels if f.stored_pixels is not None else f.pixels
        if f.interlaced:
            stored = [v for r in interlace_order(f.h) for v in stored[r * f.w:(r + 1) * f.w]]
        mcs = f.min_code_size or 8
        out += bytes([mcs]) + sub_blocks(lzw_encode(stored, mcs, f.clear_when_full))
    out += junk
    if trailer:
        out += b"\x3B"
    return bytes(out[:cut] if cut else out)


def compose(width, height, global_colors, frames):
    """The reference compositor; returns [(rgba bytes, complete)] per frame."""
    canvas = [(0, 0, 0, 0)] * (width * height)
    results = []
    pending = None
    for f in frames:
        if pending is not None:
            kind, rect, saved = pending
            for (x, y), value in zip(rect, saved if kind == 3 else [(0, 0, 0, 0)] * len(rect)):
                canvas[y * width + x] = value
        colors = f.local if f.local is not None else global_colors
        rect = [(f.x + i, f.y + j) for j in range(f.h) for i in range(f.w)
                if f.x + i < width and f.y + j < height]
        saved = [canvas[y * width + x] for x, y in rect]
        complete = True
        for j in range(f.h):
            for i in range(f.w):
                x, y = f.x + i, f.y + j
                if x >= width or y >= height:
                    continue
                k = j * f.w + i
                if k >= len(f.pixels) or f.pixels[k] is None:
                    complete = False
                    continue
                index = f.pixels[k]
                if index == f.transparent:
                    continue
                if colors is None:
                    canvas[y * width + x] = (0, 0, 0, 255)
                elif index < (f.table_entries or padded_size(len(colors))):
                    # A table is stored with a power-of-two size, padded with black.
                    color = colors[index] if index < len(colors) else (0, 0, 0)
                    canvas[y * width + x] = tuple(color) + (255,)
        if any(p is None for p in f.pixels) or len(f.pixels) < f.w * f.h:
            complete = False
        results.append((b"".join(bytes(p) for p in canvas), complete))
        pending = (f.disposal, rect, saved) if f.disposal in (2, 3) else None
    return results


def rect(w, h, fn):
    return [fn(i, j) for j in range(h) for i in range(w)]


PAL4 = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
PAL8 = PAL4 + [(0, 255, 255), (255, 0, 255), (128, 128, 128), (255, 255, 255)]


def fixtures():
    rnd = random.Random(5)
    f = {}
    f["disposal"] = (10, 8, PAL8, [
        Frame(0, 0, 10, 8, rect(10, 8, lambda i, j: (i + j) % 4), disposal=1, delay=10),
        Frame(2, 1, 4, 3, rect(4, 3, lambda i, j: 4 + (i % 2)), disposal=2, delay=0),
        Frame(1, 2, 5, 4, rect(5, 4, lambda i, j: 6 if (i + j) % 2 else 0), disposal=3, transparent=0, delay=1),
        Frame(5, 3, 5, 5, rect(5, 5, lambda i, j: 7), disposal=0, delay=2),
        Frame(0, 0, 3, 3, rect(3, 3, lambda i, j: 5), disposal=3, delay=250),
        Frame(6, 0, 4, 2, rect(4, 2, lambda i, j: 2), disposal=2, delay=7),
        Frame(0, 6, 10, 2, rect(10, 2, lambda i, j: 1), disposal=1, delay=3),
    ], {})
    f["disposal-previous-first"] = (6, 4, PAL4, [
        Frame(1, 1, 3, 2, rect(3, 2, lambda i, j: 2), disposal=3, delay=5),
        Frame(0, 0, 2, 2, rect(2, 2, lambda i, j: 1), disposal=1, delay=5),
    ], {"loops": [0]})
    f["transparency"] = (8, 8, PAL8, [
        Frame(0, 0, 8, 8, rect(8, 8, lambda i, j: j % 8), disposal=1),
        Frame(0, 0, 8, 8, rect(8, 8, lambda i, j: 3 if i < 4 else 5), transparent=3, disposal=1),
        Frame(2, 2, 4, 4, rect(4, 4, lambda i, j: (i * 4 + j) % 8), transparent=6, disposal=2),
        Frame(0, 0, 8, 8, rect(8, 8, lambda i, j: 7), transparent=7, disposal=1),
    ], {})
    f["interlaced"] = (7, 13, PAL8, [
        Frame(0, 0, 7, 13, rect(7, 13, lambda i, j: j % 8), interlaced=True, disposal=1),
        Frame(1, 2, 5, 1, rect(5, 1, lambda i, j: 3), interlaced=True, disposal=1),
        Frame(2, 3, 3, 9, rect(3, 9, lambda i, j: (j + i) % 8), interlaced=True, transparent=0),
    ], {})
    f["local-palettes"] = (6, 6, None, [
        Frame(0, 0, 6, 6, rect(6, 6, lambda i, j: (i + j) % 2), local=[(10, 20, 30), (200, 100, 50)], disposal=1),
        Frame(1, 1, 4, 4, rect(4, 4, lambda i, j: (i * 3 + j) % 4), local=PAL4[:3], min_code_size=2, disposal=1),
        Frame(0, 0, 3, 3, rect(3, 3, lambda i, j: rnd.randrange(256)),
              local=[(k, 255 - k, (k * 7) % 256) for k in range(256)], disposal=1),
        Frame(3, 3, 3, 3, rect(3, 3, lambda i, j: i), disposal=1),  # no colour table at all: opaque black
    ], {})
    # Indices past a 3-entry table padded to 4 in the file; entry 3 exists (black)
    # in the file, so it is painted; index 5 with min code size 3 is past it.
    f["index-past-table"] = (4, 2, PAL4[:2], [
        Frame(0, 0, 4, 2, rect(4, 2, lambda i, j: [0, 1, 2, 3, 5, 1, 0, 7][j * 4 + i]), min_code_size=3,
              table_entries=2),
    ], {})
    f["out-of-canvas"] = (8, 6, PAL4, [
        Frame(0, 0, 8, 6, rect(8, 6, lambda i, j: 0), disposal=1),
        Frame(5, 4, 6, 5, rect(6, 5, lambda i, j: 1 + (i + j) % 3), disposal=2),
        Frame(20, 20, 4, 4, rect(4, 4, lambda i, j: 2), disposal=1),  # wholly outside
        Frame(3, 1, 0, 0, [], disposal=1),  # zero-size frame
        Frame(6, 0, 9, 3, rect(9, 3, lambda i, j: 3), transparent=2, disposal=3),
        Frame(0, 5, 8, 1, rect(8, 1, lambda i, j: 1), disposal=1),
    ], {})
    # Blocks between frames that must be skipped or must lose to a later one: a
    # first GCE (transparency, disposal 2, long delay) overridden by the frame's own,
    # comments (one with empty sub-blocks), a plain-text extension, an unknown
    # extension label, an unknown application extension, an XMP-like one.
    decoy_gce = b"\x21\xF9\x04\x09\xE8\x03\x01\x00"
    comment = b"\x21\xFE\x05hello\x00\x21\xFE\x00"
    plain_text = b"\x21\x01\x0C" + bytes(12) + b"\x03abc\x00"
    unknown = b"\x21\x99\x02xy\x01z\x00"
    application = b"\x21\xFF\x0BGLIMPSETEST\x04data\x00\x21\xFF\x0BXMP DataXMP\x03<x>\x00"
    f["extensions"] = (4, 3, PAL4, [
        Frame(0, 0, 4, 3, rect(4, 3, lambda i, j: (i + j) % 4), disposal=1, delay=4,
              before=comment + decoy_gce + application),
        Frame(1, 1, 2, 2, [1, 2, 3, 0], disposal=1, delay=6, before=decoy_gce + plain_text + unknown + comment),
    ], {"loops": [4]})
    f["loop-forever"] = (2, 2, PAL4, [Frame(0, 0, 2, 2, [0, 1, 2, 3]), Frame(0, 0, 2, 2, [3, 2, 1, 0])], {"loops": [0]})
    f["loop-2"] = (2, 2, PAL4, [Frame(0, 0, 2, 2, [0, 1, 2, 3]), Frame(0, 0, 2, 2, [3, 2, 1, 0])], {"loops": [2]})
    f["loop-none"] = (2, 2, PAL4, [Frame(0, 0, 2, 2, [0, 1, 2, 3]), Frame(0, 0, 2, 2, [3, 2, 1, 0])], {})
    f["loop-last-wins"] = (2, 2, PAL4, [Frame(0, 0, 2, 2, [0, 1, 2, 3]), Frame(0, 0, 2, 2, [1, 1, 1, 1])],
                           {"loops": [5, 0, 7]})
    noise = [rnd.randrange(16) for _ in range(96 * 96)]
    f["lzw-full-table"] = (96, 96, [(k * 16, 255 - k * 16, k * 5) for k in range(16)], [
        Frame(0, 0, 96, 96, noise, min_code_size=4, clear_when_full=False),
    ], {})
    f["lzw-clear-when-full"] = (96, 96, [(k * 16, 255 - k * 16, k * 5) for k in range(16)], [
        Frame(0, 0, 96, 96, noise, min_code_size=4, clear_when_full=True, interlaced=True),
    ], {})
    f["codesize-1"] = (5, 3, [(0, 0, 0), (255, 255, 255)], [
        Frame(0, 0, 5, 3, rect(5, 3, lambda i, j: (i * j + i) % 2), min_code_size=1),
    ], {})
    # Too little data: 10 of 16 pixels, then the end code.
    short = rect(4, 4, lambda i, j: (i + j) % 4)
    f["pixel-data-short"] = (4, 4, PAL4, [
        Frame(0, 0, 4, 4, short[:10] + [None] * 6, stored_pixels=short[:10]),
    ], {})
    # Too much data: 20 pixels for a 4×4 frame; the surplus is ignored.
    f["pixel-data-long"] = (4, 4, PAL4, [
        Frame(0, 0, 4, 4, short, stored_pixels=short + [3, 3, 3, 3]),
    ], {})
    f["many-frames"] = (16, 16, PAL8, [
        Frame((k * 3) % 12, (k * 5) % 12, 4, 4, rect(4, 4, lambda i, j, k=k: (i + j + k) % 8),
              disposal=[0, 1, 2, 3][k % 4], transparent=(k % 8 if k % 3 == 0 else None), delay=k % 5)
        for k in range(300)
    ], {"loops": [0]})
    return f


def main():
    expected = []
    loops_out = []
    for name, (w, h, colors, frames, extra) in fixtures().items():
        data = write_gif(w, h, colors, frames, loops=extra.get("loops", ()))
        with open(os.path.join(HERE, name + ".gif"), "wb") as fh:
            fh.write(data)
        for k, (rgba, complete) in enumerate(compose(w, h, colors, frames)):
            expected.append(f"{name}.gif\t{k}\t{zlib.crc32(rgba):08x}\t{frames[k].delay * 10}\t{int(complete)}")
        values = extra.get("loops", [])
        plays = 1 if not values else (0 if values[-1] == 0 else values[-1] + 1)
        loops_out.append(f"{name}.gif\t{plays}")
    # Broken files, derived from the fixtures above.
    w, h, colors, frames, _ = fixtures()["disposal"]
    whole = write_gif(w, h, colors, frames)
    with open(os.path.join(HERE, "truncated.gif"), "wb") as fh:
        fh.write(whole[:len(whole) * 2 // 3])
    w, h, colors, frames, _ = fixtures()["transparency"]
    with open(os.path.join(HERE, "junk-after-frames.gif"), "wb") as fh:
        fh.write(write_gif(w, h, colors, frames, junk=b"\x47junk", trailer=False))
    with open(os.path.join(HERE, "no-trailer.gif"), "wb") as fh:
        fh.write(write_gif(w, h, colors, frames, trailer=False))
    with open(os.path.join(HERE, "expected.tsv"), "w") as fh:
        fh.write("\n".join(expected) + "\n")
    with open(os.path.join(HERE, "loops.tsv"), "w") as fh:
        fh.write("\n".join(loops_out) + "\n")
    try:
        check_with_pillow(expected)
    except ImportError:
        pass


def check_with_pillow(expected):
    import numpy
    from PIL import Image
    by_file = {}
    for line in expected:
        name, index, crc, _, _ = line.split("\t")
        by_file.setdefault(name, []).append(crc)
    for name, crcs in by_file.items():
        try:
            ours = []
            with Image.open(os.path.join(HERE, name)) as im:
                for k in range(getattr(im, "n_frames", 1)):
                    im.seek(k)
                    a = numpy.array(im.convert("RGBA"))
                    a[a[..., 3] == 0] = 0
                    ours.append(f"{zlib.crc32(a.tobytes()):08x}")
            same = [a == b for a, b in zip(ours, crcs)]
            print(f"{name}: Pillow agrees on {sum(same)}/{len(crcs)} frames")
        except Exception as error:  # noqa: BLE001 - informational only
            print(f"{name}: Pillow fails ({error})")


if __name__ == "__main__":
    main()
