"""A model's size in its definition only where the passage speaks of sizes: blind readers count "six hundred seventy-one
billion parameters in total" as a number neither in the text nor derived from it where the passage names the model
but no size (rounds 41 and 42: DeepSeek-V3 under "the V3 paper", a recipe that trains it in FP8). The clause goes
whole, between the colon that opens it and the semicolon that ends it, so the rest of the definition still reads."""

import re

from service.explain import pattern_cache

# ": six hundred seventy-one billion parameters in total (...), thirty-seven billion active per token; " and its Arabic
_SIZE_CLAUSE = pattern_cache.lazy(
    r"(?<=:)\s[^:;؛]*?\b(?:billion|trillion)\b[^:;؛]*?\b(?:parameters|active)\b[^:;؛]*[;؛]"
    r"|(?<=:)\s[^:;؛]*?(?:مليار|تريليون)[^:;؛]*?(?:معامل|نشط)[^:;؛]*[;؛]")
# the passage speaks of sizes: a parameter count ("671B", "7 billion parameters", "٣٧ مليار"), a total-by-active name
# ("30B-A3B"), the words for the two counts or "at DSV3 scale"; "the weights" or "the parameter depths" alone name no size,
# nor "billions of parameters" or "as you scale LLMs" (round 92 P01: Kimi K2's "about one trillion" was an outside figure)
_SPEAKS_OF_SIZE = pattern_cache.lazy(r"(?<![\w.])\d+(?:\.\d+)?\s?[BMT]\b(?![-\s]?tokens?\b)|-A\d+(?:\.\d+)?B\b|\b(?:\d[\d.,]*|a|one|two|half\s+a)\s+(?:billion|trillion|million)\b"
                                     r"|\b(?:active|total|activated)\s+param|\bparameter\s+count|\b(?:at|of)\s+(?:\w+\s+){0,3}scale\b|بحجم|على نطاق"
                                     r"|[\d٠-٩]\s*(?:مليار|تريليون|مليون)|المعاملات النشطة|معاملات نشطة|عدد المعاملات", re.I)


def without_unstated_sizes(definition: str, text: str) -> str:
    """`definition` less its clause of parameter counts when `text` says nothing of sizes."""
    if not definition or _SPEAKS_OF_SIZE.search(text):
        return definition
    return _SIZE_CLAUSE.sub("", definition, count=1)
