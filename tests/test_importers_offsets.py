"""Utf16Index against a reference that walks the text character by character (hypothesis)."""

from hypothesis import given
from hypothesis import strategies as st

from accord.importers._offsets import Utf16Index

TEXTS = st.text(alphabet=st.sampled_from(["a", "é", "中", " ", "\N{GRINNING FACE}", "\U00010348", "\U0001F1EB"]),
                max_size=30) | st.text(max_size=30)


@given(TEXTS)
def test_every_utf16_offset_maps_like_the_reference(text):
    ix = Utf16Index(text)
    ref, u = {}, 0
    for i, ch in enumerate(text):
        ref[u] = i
        u += 2 if ord(ch) > 0xFFFF else 1
    ref[u] = len(text)
    assert ix.utf16_length == u == len(text.encode("utf-16-le")) // 2
    assert ix.has_astral == (u != len(text))
    for off in range(-2, u + 3):
        assert ix.to_codepoint(off) == ref.get(off)
