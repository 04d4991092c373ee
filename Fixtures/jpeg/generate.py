#!/usr/bin/env python3
"""Generates the JPEG test fixtures and their libjpeg-turbo reference decodes.

Needs Pillow (`pip install pillow`), Debian's libjpeg-turbo-progs (cjpeg,
jpegtran) and the reference decoder built from ../shared/tools/refdecode.c:

    cc -O2 -o /tmp/refdecode ../shared/tools/refdecode.c -ljpeg -lpng -lgif
    python3 Fixtures/jpeg/generate.py

Writes `<name>.jpg` and, for every scale 1/N (N = 1, 2, 4, 8), the reference
RGBA as `reference/<name>.s<N>.pam` (what libjpeg-turbo's default decoder
produces), plus `manifest.txt` listing the fixtures and what each covers.
"""
import io, os, random, struct, subprocess, sys
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
REFDECODE = os.environ.get("REFDECODE", "/tmp/refdecode")
SCALES = [1, 2, 4, 8]


def source(width, height, seed=1):
    """A deterministic picture with gradients, edges and noise, so every band of coefficients is used."""
    rng = random.Random(seed)
    img = Image.new("RGB", (width, height))
    px = img.load()
    for y in range(height):
        for x in range(width):
            r = (x * 255) // max(1, width - 1)
            g = (y * 255) // max(1, height - 1)
            b = 200 if ((x // 5) + (y // 4)) % 2 else 40
            n = rng.randint(-20, 20)
            px[x, y] = (max(0, min(255, r + n)), max(0, min(255, g - n)), max(0, min(255, b + n)))
    return img


def ppm(img):
    out = io.BytesIO()
    img.save(out, "PPM")
    return out.getvalue()


def cjpeg(img, *args):
    data = ppm(img)
    return subprocess.run(["cjpeg", *args], input=data, capture_output=True, check=True).stdout


def jpegtran(data, *args):
    return subprocess.run(["jpegtran", *args], input=data, capture_output=True, check=True).stdout


def pillow(img, **kwargs):
    out = io.BytesIO()
    img.save(out, "JPEG", **kwargs)
    return out.getvalue()


def exif_orientation(value):
    """A minimal big-endian EXIF block with one IFD entry: Orientation."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(">I", 0)
    return b"Exif\x00\x00" + tiff


def write(name, data, note, fixtures):
    with open(os.path.join(HERE, name + ".jpg"), "wb") as f:
        f.write(data)
    fixtures.append((name, note))


def main():
    fixtures = []
    base = source(40, 30)
    odd = source(35, 27, seed=2)
    write("pillow-444", pillow(base, quality=90, subsampling=0), "4:4:4 baseline", fixtures)
    write("pillow-422", pillow(base, quality=90, subsampling=1), "4:2:2 baseline", fixtures)
    write("pillow-420", pillow(base, quality=90, subsampling=2), "4:2:0 baseline", fixtures)
    write("pillow-420-odd", pillow(odd, quality=75, subsampling=2), "4:2:0, 35x27 (partial MCUs)", fixtures)
    write("pillow-optimized", pillow(base, quality=60, optimize=True), "optimised Huffman tables", fixtures)
    write("pillow-gray", pillow(base.convert("L"), quality=90), "grayscale", fixtures)
    write("pillow-cmyk", pillow(base.convert("CMYK"), quality=90), "Adobe CMYK (inverted)", fixtures)
    write("pillow-progressive", pillow(base, quality=90, progressive=True), "progressive 4:2:0", fixtures)
    write("pillow-1x1", pillow(source(1, 1), quality=90), "1x1", fixtures)
    write("pillow-exif6", pillow(base, quality=80, exif=exif_orientation(6)), "EXIF orientation 6", fixtures)
    write("pillow-exif3", pillow(base, quality=80, exif=exif_orientation(3)), "EXIF orientation 3", fixtures)
    icc = bytes(range(256)) * 2
    write("pillow-icc-dpi", pillow(base, quality=80, icc_profile=icc, dpi=(300, 300)), "ICC profile, JFIF 300 dpi", fixtures)
    write("cjpeg-411", cjpeg(odd, "-sample", "4x1,1x1,1x1"), "4:1:1", fixtures)
    write("cjpeg-410", cjpeg(odd, "-sample", "4x2,1x1,1x1"), "4:1:0", fixtures)
    write("cjpeg-440", cjpeg(odd, "-sample", "1x2,1x1,1x1"), "4:4:0 (h1v2 fancy)", fixtures)
    write("cjpeg-weird", cjpeg(odd, "-sample", "2x2,2x1,1x1"), "Y 2x2, Cb 2x1, Cr 1x1", fixtures)
    write("cjpeg-1x3", cjpeg(odd, "-sample", "1x3,1x1,1x1"), "Y 1x3 (vertical factor 3)", fixtures)
    write("cjpeg-3x1", cjpeg(odd, "-sample", "3x1,1x1,1x1"), "Y 3x1 (horizontal factor 3)", fixtures)
    write("cjpeg-sub-luma", cjpeg(odd, "-sample", "1x1,2x2,2x2"), "luma subsampled below chroma", fixtures)
    write("cjpeg-1x4", cjpeg(odd, "-sample", "1x4,1x1,1x1"), "Y 1x4 (vertical factor 4)", fixtures)
    write("cjpeg-rgb", cjpeg(base, "-rgb"), "RGB JPEG (ids R, G, B)", fixtures)
    write("cjpeg-gray-2x2", cjpeg(base.convert("L"), "-grayscale", "-sample", "2x2"), "grayscale with 2x2 factors", fixtures)
    write("cjpeg-restart", cjpeg(odd, "-restart", "3B"), "restart interval 3 MCUs", fixtures)
    write("cjpeg-restart-422", cjpeg(base, "-sample", "2x1,1x1,1x1", "-restart", "1"), "4:2:2, restart every MCU row", fixtures)
    write("cjpeg-progressive", cjpeg(odd, "-progressive"), "progressive, successive approximation", fixtures)
    write("cjpeg-progressive-restart", cjpeg(base, "-progressive", "-restart", "2B", "-sample", "1x1,1x1,1x1"),
          "progressive 4:4:4 with restarts (EOB runs across restarts)", fixtures)
    write("cjpeg-progressive-gray", cjpeg(base.convert("L"), "-grayscale", "-progressive"), "progressive grayscale", fixtures)
    write("cjpeg-q100", cjpeg(odd, "-quality", "100"), "quality 100", fixtures)
    # Progressive files cut after a scan (EOI appended): libjpeg-turbo block-smooths what is missing.
    tall = cjpeg(source(48, 72, seed=3), "-progressive")
    sos = [i for i in range(len(tall) - 1) if tall[i] == 0xFF and tall[i + 1] == 0xDA]
    write("cjpeg-progressive-cut1", tall[:sos[1]] + b"\xff\xd9", "progressive, DC scan only (block smoothing, DC interpolation)", fixtures)
    write("cjpeg-progressive-cut3", tall[:sos[3]] + b"\xff\xd9", "progressive, first AC scans only (block smoothing)", fixtures)
    sequential = cjpeg(base, "-sample", "2x2,1x1,1x1")
    scans = os.path.join(HERE, "noninterleaved.scans")
    with open(scans, "w") as f:
        f.write("0: 0 63 0 0;\n1: 0 63 0 0;\n2: 0 63 0 0;\n")
    write("jpegtran-noninterleaved", jpegtran(sequential, "-scans", scans), "sequential, one scan per component", fixtures)
    os.remove(scans)
    write("jpegtran-arithmetic", jpegtran(sequential, "-arithmetic"), "arithmetic coding (must be rejected)", fixtures)

    refdir = os.path.join(HERE, "reference")
    os.makedirs(refdir, exist_ok=True)
    for old in os.listdir(refdir):
        os.remove(os.path.join(refdir, old))
    lines = []
    for name, note in fixtures:
        path = os.path.join(HERE, name + ".jpg")
        decoded = []
        for scale in SCALES:
            out = os.path.join(refdir, f"{name}.s{scale}.pam")
            args = [REFDECODE, "--iterations", "1", "--dump", out] + (["--scale", str(scale)] if scale != 1 else []) + [path]
            if subprocess.run(args, capture_output=True).returncode == 0:
                decoded.append(scale)
            elif os.path.exists(out):
                os.remove(out)
        lines.append(f"{name}.jpg\t{','.join(map(str, decoded)) or '-'}\t{note}")
    with open(os.path.join(HERE, "manifest.txt"), "w") as f:
        f.write("# file\tscales with a libjpeg-turbo reference in reference/\tcoverage\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
