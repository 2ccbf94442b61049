"""DeepSpeed-MoE's names for mixture-of-experts models ("1.3B+MoE-128", "350M+PR-MoE-32/64"): the dense model the MoE is
built on and the experts per MoE layer, read out as a term (round 57 P10: readers asked what "1.3B+MoE-128" means)."""

import re

from service.i18n.messages import messages

_NAME = re.compile(r"(?<![\w.])(?P<base>\d+(?:\.\d+)?\s?[MBT])\s*\+\s*(?P<pr>PR-)?MoE-(?P<experts>\d+(?:/\d+)?)(?![\w/])")
_SOURCE = {"title": "Rajbhandari et al. 2022, DeepSpeed-MoE: Advancing Mixture-of-Experts Inference and Training "
                    "(model names such as 1.3B+MoE-128 and 350M+PR-MoE-32/64)", "url": "https://arxiv.org/abs/2201.05596"}


def find(text: str, lang: str, known: set[str]) -> list[dict]:
    """Terms items for each DeepSpeed-MoE model name in `text`, once each."""
    out, seen, words = [], set(known), messages(lang)["moe_notation"]
    for m in _NAME.finditer(text):
        written = m.group(0)
        if written in seen:
            continue
        seen.add(written)
        experts = m.group("experts")
        key = "pyramid" if m.group("pr") else "plain"
        definition = words[key].format(base=m.group("base").replace(" ", ""), experts=experts.replace("/", words["then"]))
        out.append({"id": f"notation:{written.lower()}", "term": written, "expansion": words["expansion"],
                    "expansion_en": messages("en")["moe_notation"]["expansion"], "definition": definition, "intuition": None,
                    "category": "model", "calculator": None, "found_as": written, "source": _SOURCE})
    return out
