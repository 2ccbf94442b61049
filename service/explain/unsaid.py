"""The warnings still to print under an answer: none that repeats what the explanation already says."""

import re

# A warning's substance follows its label ("'bandwidth': the source's rendering ... is wrong; <substance>").
_LABEL_END = re.compile(r"[;؛]\s+")


def _substance(warning: str) -> str:
    parts = _LABEL_END.split(warning, maxsplit=1)
    return (parts[1] if len(parts) == 2 else warning).strip().rstrip(".").casefold()


def warnings_to_print(result: dict) -> list[str]:
    """`result`'s warnings less those whose substance the explanation states already (a correction shown in its
    own section is not printed a second time below the answer)."""
    said = " ".join((result.get("explanation") or "").split()).casefold()
    out = []
    for warning in result.get("warnings") or []:
        text = " ".join(str(warning).split())
        substance = _substance(text)
        if not text or (len(substance) >= 30 and substance in said):
            continue
        out.append(warning)
    return out
