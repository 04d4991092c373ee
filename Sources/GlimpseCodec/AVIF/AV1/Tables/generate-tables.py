#!/usr/bin/env python3
"""Generates the AV1 specification's constants and tables as Swift (AVIF.AV1Tables+*.swift).

Reads the specification's Markdown (AOMediaCodec/av1-spec: 03.symbols.md, 06-10*.md) and writes
each constant of §3 and of the semantics' value tables, and each `Name[ dims ] = { ... }` table,
as a static member of `AVIF.AV1Tables`, spelled as the specification spells it.
Usage: gen.py SPEC_DIR OUT_DIR
"""
import re, sys, os, collections

spec, out = sys.argv[1], sys.argv[2]
read = lambda name: open(os.path.join(spec, name), encoding="utf-8").read()

constants = collections.OrderedDict()
def add_constant(name, value, origin):
    if name in constants and constants[name][0] != value:
        raise SystemExit(f"conflict {name}: {constants[name]} vs {value} ({origin})")
    constants.setdefault(name, (value, origin))

for line in read("03.symbols.md").splitlines():
    m = re.match(r"\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*([^|]+?)\s*\|", line)
    if m: add_constant(m.group(1), m.group(2), "§3")

# Value tables of the semantics (e.g. "| 0 | BLOCK_4X4"), two or more columns.
for name in ("07.bitstream.semantics.md", "06.bitstream.syntax.md", "08.decoding.process.md"):
    for line in read(name).splitlines():
        m = re.match(r"\|\s*(-?\d+)\s*\|\s*([A-Z][A-Z0-9_]{2,})\s*(\|(.*))?$", line)
        if m and not (m.group(4) and re.match(r"\s*[A-Z][A-Z0-9_]{2,}\s*(\||$)", m.group(4))):
            add_constant(m.group(2), m.group(1), name[:2])

# §6.10.15's FrameRestorationType table has three columns (lr_type, value, name).
for name, value in (("RESTORE_NONE", "0"), ("RESTORE_WIENER", "1"), ("RESTORE_SGRPROJ", "2"), ("RESTORE_SWITCHABLE", "3")):
    add_constant(name, value, "07")

skip = re.compile(r"^(Obmc_|Wedge_|Ii_Weights|Quant_Dist|Warped_Filters|Ref_Frame_List|Compound_Mode|Div_Mult|Subpel_Filters)")
tables = collections.OrderedDict()
files = ["06.bitstream.syntax.md", "07.bitstream.semantics.md", "08.decoding.process.md",
         "09.parsing.process.md", "10.additional.tables.md"]
for name in files:
    lines = read(name).splitlines()
    i = 0
    while i < len(lines):
        if re.match(r"^\s*[A-Z][A-Za-z0-9_]*(\s*\[[^\]]+\])+\s*=\s*$", lines[i]) and i + 1 < len(lines):
            lines[i] += " " + lines[i + 1].strip(); del lines[i + 1]
        m = re.match(r"^\s*([A-Z][A-Za-z0-9_]*)((\s*\[[^\]]+\])+)\s*=\s*\{(.*)$", lines[i])
        if not m or skip.match(m.group(1)):
            i += 1; continue
        body = "{" + m.group(4)
        depth = body.count("{") - body.count("}")
        while depth > 0:
            i += 1
            body += "\n" + lines[i]
            depth += lines[i].count("{") - lines[i].count("}")
        i += 1
        dims = re.findall(r"\[([^\]]+)\]", m.group(2))
        if m.group(1) in tables: raise SystemExit("twice: " + m.group(1))
        tables[m.group(1)] = (dims, body.strip().rstrip(";"), name)

def swift_literal(body):
    s = re.sub(r"//[^\n]*", "", body)
    s = s.replace("{", "[").replace("}", "]")
    s = re.sub(r"([A-Za-z0-9_])([ \t]*\n\s*)([-A-Za-z0-9_])", r"\1,\2\3", s)  # §10's Adjusted_Tx_Size misses one comma
    s = re.sub(r",(\s*)\]", r"\1]", s)
    return s.replace("\\<", "<")

def element_type(name, body):
    # Narrow types where the values allow, so the tables cost a program less.
    if "Cdf" in name: return "UInt16"
    if name == "Quantizer_Matrix": return "UInt8"  # 2...242
    if "Scan" in name: return "UInt16"  # positions < 1024
    return "Int"

def depth_of(body):
    d = m = 0
    for c in body:
        if c == "{": d += 1; m = max(m, d)
        elif c == "}": d -= 1
    return m

groups = collections.OrderedDict([("DefaultCDF", []), ("Scan", []), ("Quantizer", []), ("Other", [])])
for name, (dims, body, origin) in tables.items():
    if name.startswith("Default_") and "Cdf" in name: groups["DefaultCDF"].append(name)
    elif "Scan" in name: groups["Scan"].append(name)
    elif name.startswith("Quantizer_Matrix") or name in ("Dc_Qlookup", "Ac_Qlookup"): groups["Quantizer"].append(name)
    else: groups["Other"].append(name)

header = """// Generated from the AV1 Bitstream & Decoding Process Specification's Markdown sources
// (AOMediaCodec/av1-spec, commit 5e04f3f) by Sources/GlimpseCodec/AVIF/AV1/Tables/generate-tables.py; do not edit.
// Names are spelled as the specification spells them, so each use can be checked against it.
"""
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "AVIF.AV1Tables.swift"), "w") as f:
    f.write(header + "\nextension AVIF {\n    /// The specification's constants (§3 and the value tables of §6) and tables (§5–§10).\n    enum AV1Tables {\n")
    for name, (value, origin) in constants.items():
        f.write(f"        static let {name} = {value.replace(chr(92), '')}\n")
    f.write("    }\n}\n")
for group, names in groups.items():
    with open(os.path.join(out, f"AVIF.AV1Tables+{group}.swift"), "w") as f:
        f.write(header + "\nextension AVIF.AV1Tables {\n")
        for name in names:
            dims, body, origin = tables[name]
            d = depth_of(body)
            t = element_type(name, body)
            ty = "[" * d + t + "]" * d
            f.write(f"    /// `{name}[{']['.join(x.strip() for x in dims)}]` ({origin[:2]}).\n")
            lit = swift_literal(body)
            lit = "\n".join("    " + l if l.strip() else l for l in lit.splitlines())
            f.write(f"    static let {name}: {ty} = {lit.strip()}\n\n")
        f.write("}\n")
print(len(constants), "constants;", {g: len(n) for g, n in groups.items()})
