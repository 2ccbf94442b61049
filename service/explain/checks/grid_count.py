"""A count of tiles, blocks or patches worked out along one side of a two-dimensional shape: "a GEMM with output size
(4096,4096) that we divide into tiles of 16x16. This gives us 4096/16 = 256 tiles" counts one side (256 per side), while
a 4096x4096 output cut into 16x16 tiles has 256 x 256 = 65,536 of them; the count is the product over both sides. The
same holds for an image of 224x224 pixels cut into 16x16 patches (196 patches, 14 per side). A text that says the
count is per side, per row or along one dimension counts one side, and is left to the plain arithmetic check."""

import re

from service.explain import pattern_cache

# "(4096,4096)", "(4096, 8192)", "4096x4096", "4096 × 8192": a two-dimensional shape as the text writes it
_SHAPE = pattern_cache.lazy(r"\(\s*(\d[\d,]*)\s*,\s*(\d[\d,]*)\s*\)|(?<![\w.])(\d[\d,]*)\s*[x×]\s*(\d[\d,]*)(?![\w.,]*\d)")
_COUNTED = pattern_cache.lazy(r"\s*(?:[A-Za-z]+\s+){0,2}?(tiles?|blocks?|patches|patch|chunks?|cells?|thread\s*blocks?|CTAs?)\b", re.I)
_ONE_SIDE = pattern_cache.lazy(r"\b(?:per|each|along|in each|on each|across each)\s+(?:the\s+)?(?:side|row|column|dimension|axis|edge|"
                               r"direction|m|n)\b|\bper[- ]side\b|\b1-?D\b|\bone[- ]dimension", re.I)
_DIVISION = pattern_cache.lazy(r"^\s*(\d[\d,]*)\s*/\s*(\d[\d,]*)\s*$")
REACH = 300  # the shape and the tile size are stated in the same or the previous sentence


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def total(text: str, expr_start: int, expr: str, result_end: int) -> tuple[str, int] | None:
    """(the working over both sides, the count) when `expr` ("4096/16") divides one side of a two-dimensional shape
    named before it by one side of a two-dimensional tile, and the result it gives is a count of tiles; else None."""
    division = _DIVISION.match(expr)
    counted = _COUNTED.match(text, result_end)
    if division is None or counted is None:
        return None
    sentence_end = re.search(r"[.!?](?:\s|$)", text[result_end:])
    after = text[result_end:result_end + (sentence_end.end() if sentence_end else 120)]
    if _ONE_SIDE.search(after) or _ONE_SIDE.search(text[max(0, expr_start - 80):expr_start]):
        return None  # "256 tiles per side": one side is what the text counts
    side, tile = _number(division.group(1)), _number(division.group(2))
    shapes = [[_number(g) for g in m.groups() if g] for m in _SHAPE.finditer(text, max(0, expr_start - REACH), expr_start)]
    whole = next((s for s in shapes if side in s and s != [tile, tile]), None)
    cut = next((s for s in reversed(shapes) if tile in s and s is not whole), None)
    if whole is None or cut is None or side == tile:
        return None
    other_side = whole[1] if whole[0] == side else whole[0]
    other_tile = cut[1] if cut[0] == tile else cut[0]
    if other_side % other_tile or side % tile:
        return None  # a ragged edge: how the text rounds it is its own choice
    return f"({side}/{tile}) * ({other_side}/{other_tile})", (side // tile) * (other_side // other_tile)
