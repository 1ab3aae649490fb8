"""Format-blind mutations for tools/fuzz.py: text edits with a dictionary of tokens, and byte edits biased to the
values that break length and offset fields (0, -1, 2^31, 2^63 ...)."""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

__all__ = ["EDGE_U64", "edge_value", "mutate_bytes", "mutate_text"]

#: unsigned values at the edges of 8-, 16-, 32- and 64-bit fields, and 2^63 (a signed 64-bit reader's minimum)
EDGE_U64 = (0, 1, 2, 3, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
            0xFFFFFFFF, 1 << 32, 1 << 40, 1 << 62, (1 << 63) - 1, 1 << 63, (1 << 64) - 2, (1 << 64) - 1)


def edge_value(rng: random.Random, near: int = 0, bits: int = 64) -> int:
    """An edge value for a field of ``bits`` bits, or one next to ``near`` (a field's own value or a length)."""
    mask = (1 << bits) - 1
    roll = rng.random()
    if roll < 0.6:
        return rng.choice(EDGE_U64) & mask
    if roll < 0.9:
        return (near + rng.choice((-64, -8, -1, 1, 8, 64, near, 1 << 20))) & mask
    return rng.getrandbits(bits)


def mutate_text(text: str, rng: random.Random, tokens: Sequence[str], rounds: int | None = None) -> str:
    """``text`` after one to four random edits: spans deleted, duplicated or replaced, tokens spliced in, digits
    changed, lines swapped or dropped, the text cut, odd characters put in."""
    for _ in range(rounds if rounds is not None else rng.choice((1, 1, 1, 2, 2, 3, 4))):
        if not text:
            text = rng.choice(tokens)
            continue
        kind = rng.randrange(8)
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randint(1, 24))
        if kind == 0:  # delete a span
            text = text[:i] + text[j:]
        elif kind == 1:  # splice in a token
            text = text[:i] + rng.choice(tokens) + text[i:]
        elif kind == 2:  # replace a span with a token
            text = text[:i] + rng.choice(tokens) + text[j:]
        elif kind == 3:  # duplicate a span
            text = text[:j] + text[i:j] + text[j:]
        elif kind == 4:  # change a digit
            digits = [k for k in range(max(0, i - 40), min(len(text), i + 40)) if text[k].isdigit()]
            if digits:
                k = rng.choice(digits)
                text = text[:k] + rng.choice("0123456789") + text[k + 1:]
        elif kind == 5:  # swap or drop whole lines
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            if rng.random() < 0.5:
                lines[a], lines[b] = lines[b], lines[a]
            else:
                del lines[a]
            text = "\n".join(lines)
        elif kind == 6:  # truncate
            text = text[:i]
        else:  # a random byte
            char = chr(rng.choice((0, 9, 10, 13, 32, 0x7F, 0xA0, 0xFEFF, rng.randrange(32, 0x250))))
            text = text[:i] + char + text[j:]
    return text


def mutate_bytes(data: bytes, rng: random.Random, rounds: int | None = None, *, start: int = 0,
                 stop: int | None = None) -> bytes:
    """``data`` after one to four byte edits inside ``data[start:stop]``: bits flipped, bytes set, an aligned
    32- or 64-bit word set to an edge value, a span deleted, duplicated or zeroed, the data cut."""
    out = bytearray(data)
    for _ in range(rounds if rounds is not None else rng.choice((1, 1, 2, 3, 4))):
        end = len(out) if stop is None else min(stop, len(out))
        if end <= start:
            out += bytes(rng.choice((b"\0", b"\xff", b"PAR1", b"\x7fELF")))
            continue
        i = rng.randrange(start, end)
        j = min(end, i + rng.randint(1, 64))
        kind = rng.randrange(8)
        if kind == 0:
            out[i] ^= 1 << rng.randrange(8)
        elif kind == 1:
            out[i] = rng.choice((0, 1, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        elif kind in (2, 3):  # a length or offset field: little-endian, at its natural alignment
            size = 8 if kind == 2 else 4
            at = i - i % size
            if at + size <= len(out):
                struct.pack_into("<Q" if size == 8 else "<I", out, at, edge_value(rng, bits=size * 8))
        elif kind == 4:
            del out[i:j]
        elif kind == 5:
            out[j:j] = out[i:j]
        elif kind == 6:
            out[i:j] = bytes(j - i)
        else:
            del out[i:]
    return bytes(out)
