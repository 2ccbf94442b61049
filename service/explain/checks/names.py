"""What a hardware name says on its own: the chips a TPU slice name stands for ("v4-8" is 4 chips, "v5e-8" is 8), and a
product name that contradicts the catalog ("H200 Blackwell": the H200 is a Hopper GPU), both read from data/hardware.json."""

import re
from dataclasses import dataclass
from functools import cache

from calculators import catalog

from service.explain.checks.core import Result
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

# "v4-8", "TPU v5p-128", "v5litepod-16", "v6e-256": a TPU version, a dash, the size Google Cloud's accelerator type gives
_SLICE = re.compile(r"(?<![\w.-])(?:TPU\s*)?(v\d+(?:p|e|litepod)?)-(\d+)(?:s\b)?(?![\w.])", re.I)
# a GPU's product code right before an architecture name ("H200 Blackwell", "B200 Hopper"), at most one word between
_PRODUCT_ARCH = r"(?<![\w-])({codes})(?:\s+(?:SXM\d?|PCIe|NVL\d*|\d+\s*GB))?\s+(?:GPUs?\s+)?({archs})\b(?!\s*Ultra)"


@dataclass
class Slice:
    """A TPU slice the text names: its name as written, the chips it holds, and how the name counts."""

    quote: str
    start: int
    chips: int
    size: int
    counts: str  # "tensorcores" (two per chip) or "chips"
    chip: dict


@cache
def _slice_prefixes() -> dict[str, dict]:
    return {p.lower(): entry for entry in catalog.hardware().entries for p in (entry.get("slice_name") or {}).get("prefixes", ())}


def slices(text: str) -> list[Slice]:
    """Every TPU slice name in the text with the chips it stands for (data/hardware.json slice_name); unknown versions skipped."""
    out = []
    for found in _SLICE.finditer(text):
        entry = _slice_prefixes().get(found.group(1).lower())
        if entry is None:
            continue
        rule, size = entry["slice_name"], int(found.group(2))
        if size % rule["per_chip"]:
            continue  # not a size this version's names use
        quote = text[found.start():found.end(2)].strip()  # "v4-128s": the name without its plural
        out.append(Slice(quote, found.start(), size // rule["per_chip"], size, rule["counts"], entry))
    return out


def slice_size(doc: Document, claim: Claim) -> Result | None:
    """A claim naming TPU slices ("on v4-128s", "the v3-256"): the chips each name stands for, said in words."""
    named = slices(claim.quote)
    if not named:
        return None
    index = doc.claims.index(claim) if claim in doc.claims else len(doc.claims)
    said = " ".join(c.why or "" for c in doc.claims[:index])  # one point is made once: a later sentence naming it adds nothing
    # "v5e-1" is one chip by any count: its reading ("counts chips: 1 chips") explains nothing (a reader called it noise)
    readings = [r for r in dict.fromkeys(slice_reading(doc.lang, s) for s in named if s.counts == "tensorcores" or s.chips > 1) if r not in said]
    return Result([], None, "; ".join(readings)) if readings else None


def slice_reading(lang: str, s: Slice) -> str:
    """In words, how the slice's name counts: "v4-8 counts TensorCores, two per chip: 4 chips"."""
    key = "slice_tensorcores" if s.counts == "tensorcores" else "slice_chips"
    return messages(lang)["verdicts"][key].format(name=s.quote, chips=s.chips, size=s.size)


@cache
def _architectures() -> tuple[re.Pattern, dict[str, dict]] | tuple[None, dict]:
    """One pattern for "<GPU code> <architecture>" and each code's catalog entry (codes from ids and short aliases)."""
    codes: dict[str, dict] = {}
    archs: set[str] = set()
    for entry in catalog.hardware().entries:
        arch = (entry.get("architecture") or {}).get("name")
        if not arch:
            continue
        archs.add(arch.split()[0])
        for alias in (entry["id"], *entry.get("aliases", ())):
            if re.fullmatch(r"[A-Z]{1,2}\d{2,3}[A-Z]?", alias.upper()) and alias.upper() not in codes:
                codes[alias.upper()] = entry
    if not codes or not archs:
        return None, {}
    pattern = _PRODUCT_ARCH.format(codes="|".join(sorted(map(re.escape, codes), key=len, reverse=True)),
                                   archs="|".join(sorted(map(re.escape, archs))))
    return re.compile(pattern, re.I), codes


def _family(entry: dict) -> str:
    """The architecture's family word ("blackwell" for Blackwell Ultra), lower-case; "" for a chip without one."""
    words = ((entry.get("architecture") or {}).get("name") or "").split()
    return words[0].lower() if words else ""


def contradicting_names(text: str, lang: str) -> list[dict]:
    """A GPU code followed by an architecture it is not ("H200 Blackwell"): one correction each, naming the catalog's architecture."""
    pattern, codes = _architectures()
    if pattern is None:
        return []
    out, seen = [], set()
    for found in pattern.finditer(text):
        entry, said = codes[found.group(1).upper()], found.group(2)
        arch = entry["architecture"]["name"]
        if _family(entry) == said.lower() or found.group(0) in seen:
            continue
        seen.add(found.group(0))
        others = sorted({re.sub(r"^(?:NVIDIA|AMD)\s+", "", e["name"].split(" (")[0]) for e in catalog.hardware().entries
                         if _family(e) == said.lower()})
        line = messages(lang)["verdicts"]["name_contradiction"].format(
            written=found.group(0), code=found.group(1), arch=arch, said=said, others=join_names(others[:3], lang))
        out.append({"as": found.group(0), "en": found.group(0), "correction": line, "warning": line, "line": f"- {line}",
                    "entry": {}, "source": entry["architecture"]["source"]})
    return out
