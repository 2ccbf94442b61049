"""The links that open a sentence ("So,", "However,", "Still, this makes it clear that"), which a restatement after "that" drops."""

import re

from service.explain import pattern_cache

# "such as"/"for example" and "of note" open a sentence that cannot follow "that": "It adds that such as X is preferred".
_LEADING = {"en": pattern_cache.lazy(r"^(?:so(?!\s+(?:far|much|many|long|that)\b)|thus|hence|therefore|(?:this|it|that) means(?: that)?|which means(?: that)?|"
            r"(?:this|that|it) (?:makes it clear|shows|suggests|implies|tells us|demonstrates|confirms|indicates) that|"
            # "This is why X" concludes X: what follows stands on its own
            r"(?:this|that) is (?:why|the reason(?: why)?)|that'?s (?:why|the reason(?: why)?)|which is why|"
            r"in short|overall|however|but|and|also|additionally|moreover|such as|"
            r"for example|for instance|e\.g\.|of note(?:\s*,?\s*though)?|"
            r"a few (?:points|things) to note(?: here)?|(?:the\s+)?(?:net\s+|end\s+)?result\s+is\s+that|"
            r"(?:following|to follow) up(?: on (?:this|that|the above))?\s*[:,])\s*,?\s+|"
            r"^(?:ah|oh|hmm+|wow|yeah|yep|ok(?:ay)?|right)(?:\s+(?:got it|i see|ok(?:ay)?|thanks|nice))?\s*(?:[,!.]|\s?[\u2014\u2013]|\s-)\s*|"
            r"^(?:(?:hi|hey|hello)\s+)?(?:guys|folks|all|everyone|team)\s*[,!]\s*|^(?:next|first(?:ly)?|second(?:ly)?|third(?:ly)?|finally|lastly|in addition|furthermore|"
            r"still|yet|nonetheless|nevertheless|in contrast|by contrast|on the other hand|indeed|in fact|in practice|"
            r"as a result|consequently|accordingly|instead)\s*,\s+", re.I),  # "explain that still, this ...": a link to what came before
            "ar": pattern_cache.lazy(r"^(?:(?:لذلك|لذا|وبالتالي|وعليه|باختصار|الخلاصة|كما|ولكن|لكن|إذن|إذًا|إذاً|اذن|وأخيرًا|وأخيراً|"
            r"وأخيرا|أخيرًا|أخيراً|ثم|أيضا|أيضًا|أيضاً|[ول]?لهذا السبب|ولهذا|لهذا|و?من ثم|و?بالتالي|و?مع ذلك|علاوة على ذلك|"
            r"و?بالإضافة إلى ذلك|و?في الواقع|و?في المقابل|و?على سبيل المثال|و?بمعنى آخر|و?بعبارة أخرى|(?:و?يبقى\s+)?سؤال\s*:|و?السؤال هو\s*:)"
            r"(?![\u0621-\u064A])\s*،?\s*"
            r"|و(?=(?:بعد|قد|في|من|كان|كانت|على|مع)\s)|[وف](?=ال[\u0621-\u064A]{2,})|ف(?=إنّ?\s)"  # "لذا فإن X": "إن X"
            r"|و(?!تير)(?=س?[يتن][\u0621-\u064A]{2,}(?![\u0621-\u064A])))")}  # "وسيتم", "وتراهن": a verb joined to the sentence before


def without(clause: str, lang: str) -> str:
    """A clause without the links that open it, however many ("Still, this makes it clear that X": X)."""
    if lang not in _LEADING:
        return clause  # a language added from a folder has no links listed: its clause is said as written
    before = None
    while before != clause:
        before, clause = clause, _LEADING[lang].sub("", clause, count=1).lstrip()
    return clause
