"""The DIE walk's skip (binary/dwarf_info.py ``_Reader._skip``) passes over LEB128s and expression blocks without
decoding them: it must end where decoding each attribute with ``_value`` ends, and raise the same error where that
raises (cut short, over 16 bytes, a block past the unit's end). The oracle is the decoding path, plus a LEB128
spelled out by hand (DWARF 5, 7.6)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from isalens.binary import dwarf_info as D


def _reader(data: bytes) -> tuple[D._Reader, D._Unit]:
    reader = D._Reader.__new__(D._Reader)  # no ELF: only .debug_info is read by a skip
    reader.info = data
    return reader, D._Unit(0, len(data), 5, 4, 8, 0, {}, {})


def _decoded(reader: D._Reader, unit: D._Unit, plan: list[int]) -> int | str:
    at = 0
    try:
        for step in plan:
            at = at + step if step >= 0 else reader._value(unit, at, -step, 0)[1]
    except D.DwarfFormatError as exc:
        return str(exc)
    return at


def _skipped(reader: D._Reader, unit: D._Unit, plan: list[int]) -> int | str:
    try:
        return reader._skip(unit, 0, plan)
    except D.DwarfFormatError as exc:
        return str(exc)


_FORMS = sorted(D._LEB_SKIPPED | {D._EXPRLOC, D._STRING})


def test_a_leb128_and_a_block_by_hand() -> None:
    # 0xE5 0x8E 0x26 is 624485 = 0x65 + (0x0E << 7) + (0x26 << 14), three bytes (the ULEB128 example of the
    # LEB128 article on Wikipedia); then an exprloc of length 2
    data = bytes([0xE5, 0x8E, 0x26, 0x02, 0x90, 0x80, 0x07])
    reader, unit = _reader(data)
    assert D._uleb(data, 0, len(data), "test") == (624485, 3)
    assert _skipped(reader, unit, [-D._UDATA, -D._EXPRLOC, 1]) == 7
    assert _skipped(reader, unit, [-D._UDATA, 1, -D._SDATA]) == 7  # 0x90 0x80 0x07: one LEB128 of three bytes
    cut, unit_cut = _reader(bytes([0x80, 0x80]))
    assert "runs past the end" in str(_skipped(cut, unit_cut, [-D._LOCLISTX]))
    long, unit_long = _reader(bytes([0x80] * 16 + [0x01]))
    assert "longer than 16 bytes" in str(_skipped(long, unit_long, [-D._UDATA]))
    block, unit_block = _reader(bytes([0x05, 0x01]))
    assert "block of 5 bytes" in str(_skipped(block, unit_block, [-D._EXPRLOC]))
    # the edges: a block ending at the unit's end, one a byte past it; a LEB128 of 16 bytes, the limit
    fits, unit_fits = _reader(bytes([0x01, 0x01]))
    assert _skipped(fits, unit_fits, [-D._EXPRLOC]) == 2
    past, unit_past = _reader(bytes([0x02, 0x01]))
    assert "block of 2 bytes" in str(_skipped(past, unit_past, [-D._EXPRLOC]))
    sixteen, unit_sixteen = _reader(bytes([0x80] * 15 + [0x01]))
    assert _skipped(sixteen, unit_sixteen, [-D._RNGLISTX]) == 16


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=40), st.lists(st.one_of(st.sampled_from(_FORMS).map(lambda f: -f),
                                                  st.integers(0, 3)), max_size=6))
def test_skip_ends_where_decoding_ends(data: bytes, plan: list[int]) -> None:
    reader, unit = _reader(data)
    expected = _decoded(reader, unit, plan)
    # a fixed-size skip past the end is the walk's to check, after the DIE
    assume(not isinstance(expected, int) or expected <= len(data))
    assert _skipped(reader, unit, plan) == expected
