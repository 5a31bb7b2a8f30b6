#!/usr/bin/env python3
"""ETC1 quality of etcpak (the PyPI wrapper of the etcpak encoder) on the texture bench's three
pictures, for comparison with pica::texture's encoder (BENCHMARKS.md "PICA200 textures").

    pip install etcpak
    SHADERPORT_TEXTURE_DUMP=/tmp/tex cargo bench -p pica --bench texture -- --warm-up-time 1 --measurement-time 3
    python3 scripts/etc1-etcpak-psnr.py /tmp/tex

The blocks etcpak returns are decoded here, independently of the Rust decoder, with the rules of
the ETC1 specification (Khronos OES_compressed_ETC1_RGB8_texture); etcpak stores each block as
the specification's 64-bit word in big-endian byte order, blocks left to right, top to bottom.
"""

import math
import sys

import etcpak

TABLES = [(2, 8), (5, 17), (9, 29), (13, 42), (18, 60), (24, 80), (33, 106), (47, 183)]
SIZE = 128


def ext4(v):
    return v * 17


def ext5(v):
    return (v << 3) | (v >> 2)


def decode_block(word):
    hi = word >> 32
    if hi & 2:
        bases = [[], []]
        for shift in (27, 19, 11):
            b = (hi >> shift) & 31
            d = (hi >> (shift - 3)) & 7
            d = d - 8 if d >= 4 else d
            bases[0].append(ext5(b))
            bases[1].append(ext5((b + d) & 31))
    else:
        bases = [[ext4((hi >> s) & 15) for s in (28, 20, 12)], [ext4((hi >> s) & 15) for s in (24, 16, 8)]]
    tables = [(hi >> 5) & 7, (hi >> 2) & 7]
    flip = hi & 1
    out = {}
    for y in range(4):
        for x in range(4):
            k = x * 4 + y
            idx = (((word >> (16 + k)) & 1) << 1) | ((word >> k) & 1)
            half = (y >= 2) if flip else (x >= 2)
            a, b = TABLES[tables[half]]
            m = [a, b, -a, -b][idx]
            out[(x, y)] = [min(255, max(0, c + m)) for c in bases[half]]
    return out


def psnr(rgba, blocks):
    se = 0
    per_row = SIZE // 4
    for n in range(len(blocks) // 8):
        word = int.from_bytes(blocks[8 * n : 8 * n + 8], "big")
        bx, by = n % per_row, n // per_row
        for (x, y), c in decode_block(word).items():
            at = ((by * 4 + y) * SIZE + bx * 4 + x) * 4
            se += sum((rgba[at + k] - c[k]) ** 2 for k in range(3))
    mse = se / (SIZE * SIZE * 3)
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    for name in ("gradient", "photo", "sharp"):
        rgba = open(f"{folder}/{name}.rgba", "rb").read()
        # The wrapper reorders the channels of the buffer it is given in place: give it a copy.
        blocks = etcpak.compress_etc1_rgb(bytes(bytearray(rgba)), SIZE, SIZE)
        print(f"{name:<10} etcpak {psnr(rgba, blocks):6.2f} dB")


if __name__ == "__main__":
    main()
