"""How the answer names a claim of a passage written in the other language: by the figures it states."""

import re

from service.i18n import arabic
from service.i18n.messages import messages

# Figures a reader of either language reads as written: a number with its unit ("3.35 TB/s", "40 ms", "13020 token/s"),
# not one with words ("6 days", "1.5K A100 gpu hours") nor a bare count ("1", "8"), which name nothing.
_WORDY = re.compile(r"\b(?!(?:tokens?|toks?|sec|gpus?)\b)[a-z]{3,}\b")
_BARE = re.compile(r"^[~≈]?[\d.,]+$")
MOST = 4


def by_figures(claim, lang: str, used: list[str] | None = None) -> str:
    """The claim named by the figures it states ("The figures “140 GB”, “3.35 TB/s”"), '' when it states none; where
    its checks name the figures they used (`used`, their quoted inputs), only those: "190 GB/s" beside a check of
    "214 GB/s" and "78%" reads as part of it."""
    figures = [f for f in claim.figures if f.quantity not in ("expression", "number", "count")]
    if used:
        figures = [f for f in figures if any(f.quote.strip() in q for q in used)] or figures
    quotes = [f.quote.strip() for f in figures]
    quotes = list(dict.fromkeys(q for q in quotes if q and not _BARE.match(q) and not _WORDY.search(q)
                                and not arabic.ARABIC_LETTER.search(q)))
    if not quotes:
        return ""
    m = messages(lang)
    label = m["claim_figures"] if len(quotes) > 1 else m.get("claim_figure", m["claim_figures"])  # one figure: "الرقم", not "الأرقام"
    return label.format(figures=m["claim_figures_join"].join(m["claim_ref"].format(quote=q) for q in quotes[:MOST]))
