"""Like with like: two figures of one quantity the text compares ("X vs Y", "from X to Y", "only X ... while Y"), as a
ratio and a difference in plain words; a factor the text states for them is judged under data/verdicts.json."""

import math
import re
from functools import cache
from types import SimpleNamespace

from service.explain.checks import formats, setup_pairs, verdicts
from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Inputs, Result, discard, multiplied, pair_as_written, run, said, worked
from service.explain.checks.directions import mixed_directions
from service.explain.checks.memory import precisions_named
from service.explain.document import Claim, Document
from service.i18n.messages import messages

LOOK_BACK = 3  # claims searched for the other side of a comparison that spans sentences
_RANGE = re.compile(r"\b(?:between|ranging from|range of)\s*$|بين\s*$", re.I)
_NAMED_RANGE = re.compile(r"\s*(?:message\s+|size\s+|sizes?\s+|length\s+)?(?:range|window|interval|span|sweep)\b|\s*(?:المدى|النطاق)\b", re.I)
_TOWARDS = re.compile(r"\bto\b|→|->|إلى")
# after "from X to Y": over how many things the figures spread ("... in four MLPerf benchmarks", "across 8 models")
_SPREAD = re.compile(r"[^.;:!?\n]{0,24}?\b(?:in|across|over|for|on|among)\s+(?:the\s+|each\s+of\s+(?:the\s+)?)?"
                     r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|various|different|all)\s+\w+"
                     r"|[^.;:!?\n]{0,24}?\b(?:depending on|according to)\b"
                     r"|[^.;:!?\n]{0,24}?(?:في|عبر|على)\s+(?:\d+|اثن|ثلاث|أربع|خمس|ست|عدة|مختلف)", re.I)
_ARTICLE = re.compile(r"^(?:[وبفلك]?ال)(?=\w{3})")  # Arabic "the" and its clitics: الحوسبة and حوسبة are one word
_WITHIN_ONLY = ("bytes", "size_bytes")  # sizes of data compared only inside one sentence ("from 74.4 GB to 86.8 MB")
_STATED = ("percent_change", "ratio", "speedup", "reduction_factor")  # a change the text states for its pair
_RANGE_ENDS = ("low", "high")  # the ends of a range the text gives ("35% to 45%"): neither is the value compared
_SPEED_KINDS = {"time", "throughput", "compute_rate", "bandwidth"}
_APPROX = re.compile(r"~|≈|about|approx|roughly|around|nearly|some|حوالي|نحو|تقريب", re.I)
_WITH = re.compile(r"\b(with|without)\s+([A-Za-z][\w-]+)((?:\s+[A-Za-z][\w-]+)?)", re.I)


@cache
def _rules() -> dict:
    """data/verdicts.json "comparison": the groups of like quantities, the cue words and the words no subject is made of."""
    rule = verdicts.table()["comparison"]
    return {"groups": {q: i for i, group in enumerate(rule["groups"]) for q in group},
            "within": re.compile(rule["cues_within"], re.I), "across": re.compile(rule["cues_across"], re.I),
            "respectively": re.compile(rule["respectively"], re.I), "stop": set(rule["not_subjects"]),
            "row_fields": rule["row_fields"], "same_within": rule["same_within"], "obvious_up_to": rule["obvious_multiple_up_to"]}


def _one_digit(value: float) -> bool:
    """Whether a value has one significant digit (40, 4 million, 0.5), so a multiple of it shows at a glance."""
    mantissa = abs(value) / 10 ** math.floor(math.log10(abs(value)))
    return abs(mantissa - round(mantissa)) < 1e-6


def _per_other(x, y) -> bool:
    """Whether two figures are rates per different things ("7.8ms/step" and "1.6ms/token"): no ratio between them."""
    per = [m.group(1).lower().rstrip("s") if (m := _PER.search(f.quote)) else None for f in (x, y)]
    return None not in per and per[0] != per[1]


_PER = re.compile(r"/\s*([A-Za-z]+)\s*$")


def _obvious(x: float, y: float) -> bool:
    """Whether one figure is a whole multiple of the other that a reader sees at a glance (40 vs 20, 4 million vs 1),
    not one that takes arithmetic (480 vs 60 ms)."""
    times = max(x, y) / min(x, y)
    return _one_digit(x) and _one_digit(y) and round(times) <= _rules()["obvious_up_to"] and abs(times - round(times)) < 1e-6


def _group(fig) -> int | None:
    return _rules()["groups"].get(fig.quantity)


def _comparable(claim: Claim) -> list:
    """The claim's figures that a comparison may take (measured quantities of a declared group), in text order."""
    return [f for f in claim.figures if _group(f) is not None]


def _pairs_within(doc: Document, claim: Claim) -> list[tuple]:
    """(x, y) pairs in one sentence: each 'from y to x', else two like figures joined by a comparison cue."""
    figs = _comparable(claim)
    befores = [f for f in figs if f.role == "before"]
    pairs = []
    for before in befores:
        if _RANGE.search(doc.text[max(0, before.start - 16):before.start]):
            continue  # "between 53% and 57%" is a range, not a change from one to the other
        after = next((f for f in figs if f.role == "after" and f.start > before.start and _group(f) == _group(before)), None)
        if after is not None and (_SPREAD.match(doc.text, after.end) or _NAMED_RANGE.match(doc.text, after.end)):
            continue  # "times from 16 to 28 seconds in four benchmarks", "tuning for 32MB to 224MB range": a spread, not a change
        if after is not None and re.search(r"→|->", doc.text[before.end:after.start]) and _relabelled(doc, before, after):
            continue  # "weights ~27 → ~43 GiB KV pool": what the first leaves for another thing, not a change of it
        if after is not None:
            pairs.append((after, before))
    if pairs or _rules()["respectively"].search(claim.quote):
        return pairs  # "A and B for bf16 and fp8 respectively": two settings listed, not compared
    used: set[int] = set()
    for first, second in zip(figs, figs[1:]):
        between = _UP_TO.sub(" ", doc.text[first.end:second.start])  # "up to 96 GB" is a ceiling, not "from X to Y"
        alike = sum(_group(f) == _group(first) for f in figs) == 2  # a row of five timings is a table, not two things said alike
        if id(first) in used or _group(first) != _group(second) or _two_metrics(doc, first, second) or setup_pairs.labelled_apart(doc.text, first, second) \
                or not (_rules()["within"].search(between) or alike and _parallel(doc, first, second)) \
                or verdicts.scale_contrast(first.value, second.value) and not _EXPLICIT.search(between):
            continue
        if _TOWARDS.search(between) and (_SPREAD.match(doc.text, second.end) or _NAMED_RANGE.match(doc.text, second.end)):
            continue  # "from 16 to 28 seconds in four MLPerf models": a spread over several things, not a change
        if _THAN_BEFORE.search(doc.text[max(0, first.start - 30):first.start]) and verdicts.STATED_FACTOR.search(between):
            continue  # "2.4x more than 80GB accelerators, and 1.5x more than 128GB": two comparands, each of its own factor
        if re.search(r"→|->", between) and _relabelled(doc, first, second):
            continue  # "weights ~27 → ~43 GiB KV pool": what the first leaves for another thing, not a change of it
        # "X to Y" / "X → Y" reads as a change from X; "X vs Y", "X than Y" compare X with Y
        pairs.append((second, first) if _TOWARDS.search(between) else (first, second))
        used.update((id(first), id(second)))
    return pairs


_EXPLICIT = re.compile(r"\b(?:vs\.?|versus|compared|than)\b|→|->|مقابل|مقارنة", re.I)  # a comparison said in so many words
_LABEL_BEFORE = re.compile(r"(?<![\w-])(?!(?:from|to|at|of|about|around|roughly|approximately|by|was|is|were|are|rose|rises|went|goes|"
                           r"fell|falls|dropped|drops|increased|decreased|improved|grew|went|changed|moved|with)\b)([A-Za-z][\w-]{2,})\s*[~≈]?\s*$", re.I)
_LABEL_AFTER = re.compile(r"\s*(?:[A-Za-z]{1,4}B|GiB|GB|TB|MiB|MB|ms|s|%)?\s+(?!(?:per|on|in|at|for|with|after|when|and|or|to|of|by|from)\b)"
                          r"([A-Za-z][\w-]{1,})")


_OTHER_SUBJECT = re.compile(r"\b(?:while|whereas|but|yet)\b", re.I)
_NAMED_SHARES = frozenset({"mfu", "hfu", "utilization"})


def _two_metrics(doc: Document, first, second) -> bool:
    """Whether two figures are of two different measures: shares of different things ("100% GPU utilization but MFU is
    only 30%"), or two fields of one log line ("prompt throughput: 1598.0 tokens/s, generation throughput: 190.2
    tokens/s"); their ratio is no change and says nothing."""
    if first.quantity != second.quantity and bool({first.quantity, second.quantity} & _NAMED_SHARES):
        return True
    labels = [_FIELD_LABEL.search(doc.text, max(0, f.start - 48), f.start) for f in (first, second)]
    return all(labels) and labels[0].group(1).lower() != labels[1].group(1).lower() \
        and not any(_SIDE_LABEL.match(m.group(1)) for m in labels)  # "Before: 1598 tokens/s, after: 2100 tokens/s": one thing, twice


_SIDE_LABEL = re.compile(r"(?:before|after|old|new|baseline|original|now|then|with|without|ours|theirs|main|patched|fixed)\b", re.I)
_FIELD_LABEL = re.compile(r"(?:^|[,;|\n]|:)\s*((?:[A-Za-z][\w./()-]*\s+){0,3}[A-Za-z][\w./()-]*)\s*[:=]\s*[~≈]?\s*$")


def _relabelled(doc: Document, first, second) -> bool:
    """Whether an arrow joins two figures named by different words ("weights ~27 → ~43 GiB KV pool")."""
    before = _LABEL_BEFORE.search(doc.text[max(0, first.start - 20):first.start])
    after = _LABEL_AFTER.match(doc.text, second.end)
    return bool(before and after) and before.group(1).lower() != after.group(1).lower()


_VERB_BEFORE = re.compile(r"([A-Za-z\u0621-\u064A]{3,})\s+(?:(?:about|roughly|around|only|just|~|≈|حوالي|نحو)\s*)?$", re.I)


def _parallel(doc: Document, first, second) -> bool:
    """"FP8 takes 42s per image ... bfloat16 takes 33s under the same setting": one verb before each of two like figures
    says the same of two things, which compares them as a "vs" would."""
    a = _VERB_BEFORE.search(doc.text[max(0, first.start - 24):first.start])
    b = _VERB_BEFORE.search(doc.text[max(0, second.start - 24):second.start])
    return bool(a and b) and a.group(1).lower() == b.group(1).lower() and a.group(1).lower() not in _NOT_VERBS \
        and not re.search(r"(?<![A-Za-z\d.,])\d[\d.,]*\s*$", doc.text[max(0, first.start - 24):first.start][:a.start()])  # "seconds 2.86 seconds": a unit (not "BF16 decode")


_MORE_AFTER = re.compile(r"\s*(?:more|extra|additional|longer|أخرى|آخر|إضافية|إضافي|زيادة)\b", re.I)
_MORE_BEFORE = re.compile(r"\b(?:another|an?\s+(?:extra|additional|further)|extra|additional|further)\s+$|(?:إضافة|زيادة)\s+$", re.I)


def increment(doc: Document, fig) -> bool:
    """Whether a figure is an amount added to another ("20 more seconds", "another 20 s", "20 ثانية أخرى"), not a total."""
    return bool(_MORE_AFTER.match(doc.text, fig.end) or _MORE_BEFORE.search(doc.text, max(0, fig.start - 20), fig.start))


def _bounded(doc: Document, fig) -> bool:
    """Whether the text writes a figure as a floor or a ceiling ("< 800ms", "more than 24 times")."""
    return verdicts.stated_bound(doc.text[max(0, fig.start - 24):fig.start]) is not None \
        or bool(re.match(r"\d[\d.,]*\s*\+", fig.quote.strip())) or doc.text[fig.end:fig.end + 1] == "+"  # "7+ minutes"


_UP_TO = re.compile(r"\bup to\b|حتى|ما يصل إلى", re.I)
_NOT_VERBS = {"and", "the", "with", "for", "from", "per", "of", "was", "were", "are", "and", "than", "each", "every", "على", "إلى", "في",
              # "عبر وصلة بسرعة 1.8 ... عبر وصلة بسرعة 10": "at a speed of" names two links, no verb saying the same of both
              "بسرعة", "بسعة", "بمعدل", "بقدرة", "بحجم", "speed", "rate", "capacity"}
_THAN_BEFORE = re.compile(r"\bthan\s+(?:[\w-]+\s+){0,2}$", re.I)
_TIME_LABEL = re.compile(r"\b(?:time[- ]per[- ](?:iteration|iter|step)|(?:iteration|step|elapsed|wall[- ]?clock)[- ]time|latency)\b"
                         r"|زمن (?:التكرار|الخطوة)", re.I)
_VS_LABELLED = re.compile(r"^\s*(?:vs\.?|versus|مقابل)\s*(?:[\w-]+\s*:\s*)?$", re.I)  # "19794.1 VS normal-attn: 22679.3"


def _labelled_times(doc: Document, claim: Claim) -> list[tuple]:
    """"Time-per-iteration for seq-length 2048: flash-attn: 19794.1 VS normal-attn: 22679.3": two bare numbers a time label
    heads, set against each other by "vs" (their unit unstated, their ratio is not)."""
    bare = [f for f in claim.figures if f.quantity == "number" and f.value > 0]
    if len(bare) != 2 or not _TIME_LABEL.search(doc.text[claim.start:bare[0].start]):
        return []
    first, second = bare
    return [(first, second)] if _VS_LABELLED.match(doc.text[first.end:second.start]) else []


_IN_WORKING = re.compile(r"\([^()]*[*/×÷][^()]*\)")  # an operand of the row's own bracketed working
_BASELINE = re.compile(r"\bw/o\b|\bwithout\b|\bbaseline\b|\bno[ -]\w+|بدون|دون\b|الأساس", re.I)


def _against_baseline(doc: Document, claim: Claim) -> list[tuple]:
    """A results table run into one line ("SGLang (w/o speculative) 158.34 tokens/s SGLang + EAGLE-2 244.10 tokens/s
    SGLang + EAGLE-3 373.25 tokens/s"): three or more like figures, each after its own label, one label the baseline
    ("w/o", "without", "baseline"): each other row against it."""
    figs = [f for f in _comparable(claim) if f.role not in _RANGE_ENDS]
    if len(figs) < 3 or len({_group(f) for f in figs}) != 1:
        return []
    labels = [doc.text[(figs[i - 1].end if i else claim.start):f.start] for i, f in enumerate(figs)]
    marked = [f for f, label in zip(figs, labels) if _BASELINE.search(label)]
    if len(marked) != 1 or any(not re.search(r"[A-Za-z\u0621-\u064A]", label) for label in labels):
        return []
    return [(f, marked[0]) for f in figs if f is not marked[0]]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"\||\t", line) if c.strip()] if re.search(r"\||\t", line) else []


def _header_pair(doc: Document, claim: Claim) -> list[tuple]:
    """"Sync | Async" over "27.34s | 0.54s", in a text that says "sync vs async": a two-column table whose columns the
    text itself sets against each other; its row's two like figures are the pair."""
    row = _cells(claim.quote)
    figs = _comparable(claim)
    if len(row) != 2 or len(figs) != 2 or _group(figs[0]) != _group(figs[1]) or any(f.quote.strip() not in row for f in figs):
        return []
    lines = doc.text[:claim.start].rstrip("\n").split("\n")
    header = _cells(lines[-1]) if lines else []
    if len(header) != 2 or any(re.search(r"\d", h) for h in header):
        return []
    a, b = (re.escape(h) for h in header)
    if not re.search(rf"(?<!\w){a}\s+(?:vs\.?|versus|مقابل)\s+{b}(?!\w)", doc.text, re.I):
        return []
    return [(figs[0], figs[1])]


def _respectively(doc: Document, claim: Claim, index: int) -> list[tuple]:
    """Two sentences listing the same settings "respectively": each figure against the one in the same place before."""
    if index == 0 or not _rules()["respectively"].search(claim.quote):
        return []
    earlier = doc.claims[index - 1]
    now, before = _comparable(claim), _comparable(earlier)
    if not _rules()["respectively"].search(earlier.quote) or len(now) != len(before) or len(now) < 2:
        return []
    if any(_group(a) != _group(b) for a, b in zip(now, before)):
        return []
    return list(zip(now, before))


def table_row(doc: Document, claim: Claim) -> bool:
    """Whether the claim is a row of a table or log: the sentence before or after states the same quantities."""
    index = doc.claims.index(claim) if claim in doc.claims else -1
    shape = [f.quantity for f in claim.figures]
    if len(shape) < 2 or index < 0:
        return False
    near = doc.claims[max(0, index - 1):index] + doc.claims[index + 1:index + 2]
    return any([f.quantity for f in c.figures] == shape for c in near)


def _rows(doc: Document, claim: Claim, index: int) -> list[tuple]:
    """Rows of one table or log (consecutive sentences stating the same quantities, "tps: 128  mfu: 33.88%"): the row's
    headline figure (MFU, else a throughput or step time) against the first row's."""
    shape = [f.quantity for f in claim.figures]
    if len(shape) < 2 or index == 0:
        return []
    first = index
    while first > 0 and [f.quantity for f in doc.claims[first - 1].figures] == shape \
            and not re.search(r"[A-Za-z0-9\u0621-\u064A]", doc.text[doc.claims[first - 1].end:doc.claims[first].start]):
        first -= 1  # a heading between rows ("A10G" ... "4090") starts another table with a baseline of its own
    if first == index:
        return []
    field = next((q for q in _rules()["row_fields"] if q in shape), None)
    if field is None:
        return []
    if first > 0 and field in [f.quantity for f in doc.claims[first - 1].figures] and "|" in doc.claims[first - 1].quote:
        return []  # the table's first row has another shape ("1 | — | 84 k | —"): which row is the baseline is unsure
    own = [f for f in claim.figures if f.quantity == field]
    family = [f for f in claim.figures if _family(f.quantity) == _family(field)]  # "alltoall 438.5 TFLOP/s vs hybridep
    own = own if len(own) >= 2 else family  # 431.0 TFLOP/s (+1.7%)": one read as a peak, the row still compares its two rates
    if len(own) >= 2:  # "512  13,151 tok/s  13,092 tok/s  -0.4%": the row compares its own columns, not other rows
        return [(own[1], own[0])]
    x = own[0]
    y = next(f for f in doc.claims[first].figures if f.quantity == field)  # the first row's own "(49.6% overhead)": each row's share
    return [] if any(f.quantity in _STATED for f in doc.claims[first].figures) else [(x, y)]  # no change between rows (r104 P03)


def _family(quantity: str) -> str:
    """Quantities of one unit: every FLOP/s rate (a peak, a chip's, an achieved one) is one family."""
    return "flop_per_s" if "flop_per_s" in quantity else quantity


def _words_of(claim: Claim) -> list[str]:
    """The words of a sentence outside its figures, normalised (lower case, no Arabic article)."""
    text = claim.quote
    for fig in claim.figures:
        text = text.replace(fig.quote, " ")
    return [_ARTICLE.sub("", w.lower()) for w in re.findall(r"[A-Za-z\u0600-\u06FF]+", text)]


def _content(word: str) -> bool:
    return len(word) >= 4 and word not in _rules()["stop"]


def _shared_subject(a: Claim, b: Claim) -> bool:
    """Whether two sentences measure the same thing: a content word in both ("throughput", "forward time"), not qualified
    by different words ("tokenizer step" vs "optimizer step" are two things)."""
    words_a, words_b = _words_of(a), _words_of(b)

    def qualifiers(words: list[str], word: str) -> set[str]:
        return {words[i - 1] for i, w in enumerate(words) if w == word and i and _content(words[i - 1])}

    for word in {w for w in words_a if _content(w)} & set(words_b):
        one, other = qualifiers(words_a, word), qualifiers(words_b, word)
        if not (one and other and not one & other):
            return True
    return False


def _setups(a: Claim, b: Claim) -> tuple[str, str] | None:
    """What sets two sentences apart as different set-ups (another chip, model or number format, with vs without X), or None."""
    for names in (lambda c: {x["name"] for x in c.chips}, lambda c: {x["name"] for x in c.models}, lambda c: set(precisions_named(c.quote))):
        one, other = names(a), names(b)
        if one and other and not one & other:
            return ", ".join(sorted(one)), ", ".join(sorted(other))
    with_a = {m.group(2).lower(): m.group(0) for m in _WITH.finditer(a.quote)}
    with_b = {m.group(2).lower(): m.group(0) for m in _WITH.finditer(b.quote)}
    for word in with_a.keys() & with_b.keys():  # "with activation checkpointing" in one, "without ..." in the other
        if with_a[word].split()[0].lower() != with_b[word].split()[0].lower():
            return with_a[word].lower(), with_b[word].lower()
    return None


_RELATIVE = re.compile(r"\b(?:increase|improvement|gain|rise|jump|drop|decrease|fall|speed-?up)\s+(?:over|from|on|against)\b|"
                       r"\bup\s+from\b|\bdown\s+from\b|\bcompared\s+(?:with|to)\b|\brelative\s+to\b", re.I)


def _across(doc: Document, claim: Claim, index: int) -> tuple | None:
    """The other side of a comparison a sentence makes with an earlier one ("... reaching 230 TFLOP/s" after "130 TFLOPS"):
    (x, y, earlier claim) when the later sentence says it compares, holds one like figure and shares a subject."""
    figs = _comparable(claim)
    says_factor = any(f.quantity == "ratio" for f in claim.figures)  # "about 24x the compute of ..." compares too
    if len(figs) != 1 or not (_rules()["across"].search(claim.quote) or says_factor) or any(f.role == "after" for f in claim.figures):
        return None  # "rises only from 1.2 to 1.5": the sentence gives its own change, not a comparison with one before
    x = figs[0]
    for earlier in [c for c in doc.claims[:index] if says_factor and _BASELINE.match(c.quote)] + list(reversed(doc.claims[max(0, index - LOOK_BACK):index])):
        like = [f for f in _comparable(earlier) if _group(f) == _group(x)]  # a factor is against the row called baseline, if any
        like = [f for f in like if not _IN_WORKING.search(doc.text, f.start - 12, f.end + 12)] or like  # not "(8.75 % * 2 / 3)"
        if not like:
            continue
        if len(like) != 1 or not (says_factor or _shared_subject(claim, earlier)
                                  or _RELATIVE.search(claim.quote) and like[0].quantity == x.quantity):
            return None  # "a significant increase over earlier benchmarks, which showed ~1.5k tokens/s per GPU": its own kind
        relative = _RELATIVE.search(claim.quote)
        if relative and x.start - claim.start > relative.start():
            return like[0], x, earlier  # the figure after "increase over" is the baseline: the new one is said first
        return x, like[0], earlier
    return None


_DIFFERENCE = re.compile(r"\b(?:difference|differ\w*|gap|slower|faster|compar\w*|versus|vs\.?)\b|فرق|الفرق|أبطأ|أسرع|مقارنة", re.I)


def _same_label(doc: Document, claim: Claim, index: int) -> tuple | None:
    """"Throughput per Device: 8,034 ..." and, under another heading, "Throughput per Device: 1,747 ...": the same label
    with one like figure each, in a text that asks about their difference ("why is there such a difference ...?")."""
    figs = _comparable(claim)
    words = _words_of(claim)
    if len(figs) != 1 or not any(_content(w) for w in words) or not _DIFFERENCE.search(doc.text):
        return None
    for earlier in reversed(doc.claims[max(0, index - LOOK_BACK):index]):
        like = [f for f in _comparable(earlier) if _group(f) == _group(figs[0])]
        if len(like) == 1 and _words_of(earlier) == words:
            return figs[0], like[0], earlier
    return None


_FOR_COMPARISON = re.compile(r"\b(?:for|by|in) comparison\b|\bas a (?:comparison|baseline|reference)\b|للمقارنة|بالمقارنة", re.I)
_SETUP_COUNTS = ("n_nodes", "n_chips")


def _for_comparison(doc: Document, claim: Claim, index: int) -> tuple | None:
    """"For comparison FULL_SHARD on 4 nodes: 55.3 samples/s ..." after "HYBRID_SHARD 4 nodes: 74.4 samples/s": a row the
    text offers as the comparison, against the earlier row with the same node or chip count, on the first log field both give."""
    counts = {(f.quantity, f.value) for f in claim.figures if f.quantity in _SETUP_COUNTS}
    if not counts or not _FOR_COMPARISON.search(claim.quote):
        return None
    for earlier in reversed(doc.claims[max(0, index - LOOK_BACK):index]):
        if {(f.quantity, f.value) for f in earlier.figures if f.quantity in _SETUP_COUNTS} != counts:
            continue
        for field in _rules()["row_fields"]:
            x = [f for f in claim.figures if f.quantity == field]
            y = [f for f in earlier.figures if f.quantity == field]
            if len(x) == 1 and len(y) == 1:
                return x[0], y[0], earlier
        return None
    return None


def _share(value: float) -> str:
    text = f"{value * 100:.1f}".rstrip("0").rstrip(".")
    return f"{text}%"


def _difference(value: float) -> str:
    return f"{abs(value) * 100:.0f}%" if abs(value) >= 0.05 else _share(abs(value))


def _words(doc: Document, x, y, factor: float) -> str:
    """The ratio and the difference of x against y in plain words."""
    m = messages(doc.lang)["verdicts"]
    # the figures in the answer's language ("15.6 تريليون رمز"), not a quote of the other language; "33.88%" as written
    x, y, factor = (y, x, 1 / factor) if verdicts.reference(doc.text, x) and not verdicts.reference(doc.text, y) else (x, y, factor)
    x, y = (SimpleNamespace(quote=said(doc, f)) for f in (x, y))  # the figure as the answer writes it
    if abs(factor - 1) < 0.005:
        return m["compare_same"].format(x=x.quote, y=y.quote)
    if factor >= 2 or factor <= 0.5:
        big, small, times = (x, y, factor) if factor >= 1 else (y, x, 1 / factor)
        return m["compare_times"].format(x=big.quote, y=small.quote, factor=f"{times:.1f}".rstrip("0").rstrip("."))
    key = "compare_lower" if factor < 1 else "compare_higher"
    return m[key].format(x=x.quote, y=y.quote, share=_share(factor), diff=_difference(factor - 1))


def _bound_pair(doc: Document, pair: tuple) -> Result | None:
    """One figure written as a floor or a ceiling against another of its kind: the share said as a bound ("less than
    71.4% of it"), its working shown; never a verdict (the text states no factor)."""
    bounded, other = pair if _bounded(doc, pair[0]) else pair[::-1]
    if not verdicts.same_kind(bounded.quantity, other.quantity) or not (bounded.value and other.value):
        return None
    found = verdicts.stated_bound(doc.text[max(0, bounded.start - 24):bounded.start])
    side, written = found if found is not None else ("more", "")  # "7+ minutes" is a floor written with its "+"
    index = worked(doc, f"{bounded.value:g} / {other.value:g}", f"{bounded.quote} / {other.quote}")
    if index is None:
        return None
    share = bounded.value / other.value
    m = messages(doc.lang)["verdicts"]
    amount = m["bound_times"].format(factor=f"{share:.1f}".rstrip("0").rstrip(".")) if share >= 1.5 else m["bound_share"].format(share=_share(share))
    if doc.lang != "en":  # the bound in the answer's own words ("أقل من 100GB/s"), not the text's English ones
        written = m["bound_written"][side]
    return Result([index], None, m["compare_bound"].format(x=f"{written} {said(doc, bounded)}".strip(), y=said(doc, other),
                                                           side=m["bound_side"][side], amount=amount))


def _ratio(doc: Document, x, y, stated=None) -> tuple[int, dict] | None:
    """The ratio calculator on y -> x, with the change or factor the text states (a factor is taken big over small)."""
    inputs = Inputs(doc.lang)
    if stated is not None and stated.quantity != "percent_change" and (x.value < y.value) != (0 < stated.value < 1):
        x, y = y, x  # "3.4x lower", "24x the compute": big over small; a factor under 1 ("0.31x") small over big
    if stated is None and x.value and y.value and x.value / y.value <= 0.5:
        x, y = y, x  # "about 3.4 times as much" is said big over small: the working divides the same way
    pair_as_written(inputs, x, y)  # "6,250 days" against "675" days: the ratio worked in the numbers the text writes
    if stated is not None:
        value = stated.value if stated.quantity == "percent_change" else f"{stated.value:g}x"
        approx = stated.approx or bool(_APPROX.search(doc.text[max(0, stated.start - 16):stated.start]))
        inputs.stated("stated_change", value, stated.quote, tolerance_of(stated.quote, abs(stated.value), approx))  # "3x": 2.5-3.5x
    index = run(doc, "ratio", inputs)
    return None if index is None else (index, doc.calculations[index]["outputs"])


def earlier_side(doc: Document, claim: Claim) -> set[int]:
    """The ids of the claim's figures another comparison takes as its reference: the 'y' of its own pairs, and every
    figure of a list the next sentence compares place by place ("... respectively" twice)."""
    index = doc.claims.index(claim) if claim in doc.claims else 0
    ids = {id(y) for _, y in _pairs_within(doc, claim)}
    if index + 1 < len(doc.claims):
        ids |= {id(y) for _, y in _respectively(doc, doc.claims[index + 1], index + 1)}
    return ids


def _table_row(doc: Document, claim: Claim, earlier: Claim) -> bool:
    """Whether two claims are rows of one table whose first row is the baseline: a factor of 1 stated in the earlier one."""
    return any(f.value == 1.0 and re.search(r"[x×]\s*$", f.quote) or f.quote.strip().lower() in ("1.0x", "1x", "1.00x")
               for f in earlier.figures) or bool(re.search(r"(?<![\d.])1(?:\.0+)?\s*[x×](?!\w)", earlier.quote))


def _stated_for(claim: Claim, pair: tuple):
    """The stated change or factor nearest the pair ("3x faster - 312 vs 989 TFLOPS, but <2x the bandwidth - 2.0 vs 3.35
    TB/s": the <2x is the bandwidths'), or None when a measured figure of another kind stands between them (the factor
    may be about that figure instead)."""
    low, high = min(f.start for f in pair), max(f.end for f in pair)
    candidates = [f for f in claim.figures if f.quantity in _STATED and f.value]
    stated = min(candidates, key=lambda f: low - f.end if f.end <= low else f.start - high if f.start >= high else 0)
    if stated.end <= low and re.search(r"\(\s*[+-−]?$", claim_text(claim, stated)) or stated.start >= high and verdicts.OTHER_SCOPE.match(claim.quote, stated.end - claim.start):
        return None  # "... vs 6,986 tok/s (+113.2%), TTFT ...": a bracketed change is of what comes before it; "+1.46% end-to-end" the whole run's
    label = re.search(r"([A-Za-z][\w ]{0,30}):\s*$", claim.quote[:stated.start - claim.start])
    if label and not _GAIN_LABEL.search(label.group(1)):
        return None  # "Maximum concurrency: 26.57x": the value of a labelled quantity, no factor between the rows
    start, end = (stated.end, low) if stated.end <= low else (high, stated.start)
    if _OTHER_SUBJECT.search(claim.quote[start - claim.start:end - claim.start]):
        return None  # "time barely moves (2.08 → 2.36 ms) while the FLOP count moves 8.3x" (round 101 P01): another thing's factor
    kind = verdicts.kind(pair[0].quantity)
    between = [f for f in claim.figures if start <= f.start and f.end <= end and f not in pair
               and f.quantity not in ("number", "expression") and verdicts.kind(f.quantity) != kind
               and not (f.quantity in _SETUP and _SET_UP_BEFORE.search(claim.quote[:f.start - claim.start]))]
    return None if between else stated


# "~56% speedup over layer split on 2-GPU nodes (measured: 29.7 vs 19 t/s)": the hardware the pair was measured on is
# its condition, never what the factor measures
_SETUP = frozenset({"chips_per_node", "n_chips", "n_nodes", "params", "active_params"})
_SET_UP_BEFORE = re.compile(r"\b(?:on|with|using|across|over|for)\s+(?:a\s+|an\s+|the\s+|two\s+|four\s+|eight\s+)?$", re.I)


_GAIN_LABEL = re.compile(r"speed-?ups?|gain|improvement|faster|slower|ratio|factor|reduction|increase|decrease|change", re.I)


def claim_text(claim: Claim, fig) -> str:
    """The claim's words just before a figure (up to a few characters)."""
    offset = fig.start - claim.start
    return claim.quote[max(0, offset - 3):offset]


_COMPARED_SETUPS = re.compile(r"\b(?:longer|shorter|faster|slower|more|less|higher|lower|larger|smaller)\b", re.I)


# "speedup usually around 10X": a factor the text says is usual, which one example pair may exceed
_USUALLY = re.compile(r"\b(?:usually|typically|generally|often|normally|commonly|in general|tends? to be)\b|عادة|عادةً|غالبا|غالبًا|في الغالب", re.I)

def comparison(doc: Document, claim: Claim) -> Result | None:
    """Each pair of like figures the claim compares: the ratio and difference said; a change or factor it states judged
    (unless the arithmetic check already judged it)."""
    if any(doc.calculations[i]["calculator"] == "ratio" for i in claim.calculations):
        return None  # the sentence's stated change is already judged (or found to pair unlike kinds)
    index = doc.claims.index(claim) if claim in doc.claims else 0
    pairs = _pairs_within(doc, claim) or _respectively(doc, claim, index) or _rows(doc, claim, index) or _labelled_times(doc, claim) \
        or _header_pair(doc, claim) or _against_baseline(doc, claim)
    stated = next((f for f in claim.figures if f.quantity in _STATED and f.value), None)
    if not pairs and stated is not None and "|" in claim.quote:
        return None  # a table row's stated change is against its column's baseline, not a row found by its words
    if not pairs:
        found = _across(doc, claim, index) or _same_label(doc, claim, index) or _for_comparison(doc, claim, index)
        if found is None:
            return None
        x, y, earlier = found
        if x.quantity in _WITHIN_ONLY or y.quantity in _WITHIN_ONLY or x.value == y.value:
            return None  # a data size met again in another sentence ("0.8GB each") is the same size, not a change
        setups = _setups(claim, earlier)
        # the author's own factor between the two set-ups ("150 hours on 8xA800 ... roughly 4x longer" than 35.1 hours
        # on 8xH20) compares them: the factor is judged, not refused (a round-16 reader found 150 / 35.1 = 4.3 right)
        if setups is not None and not (stated is not None and (_table_row(doc, claim, earlier) or _COMPARED_SETUPS.search(claim.quote))):
            # (a table's rows that state their own speed-up, "BF16 1.02s 1.0x" / "FP8 0.90s 1.13x", compare the set-ups)
            return Result([], "needs_more", messages(doc.lang)["verdicts"]["compare_setups"].format(
                x=x.quote, y=y.quote, a=setups[0], b=setups[1]))
        pairs = [(x, y)]
    kept = [(x, y) for x, y in pairs if x.role not in _RANGE_ENDS and y.role not in _RANGE_ENDS
            and not (_bounded(doc, x) and _bounded(doc, y))  # "TTFT + 16 TPOT < 500ms, end-to-end < 800ms": two limits
            and not increment(doc, x) and not increment(doc, y)  # "16 s, or 20 more seconds without it": no total
            and multiplied(doc, x) == multiplied(doc, y)]  # "2×256GB ... 608GB total": one machine's size against a sum (r92)
    pairs = [(x, y) for x, y in kept if not (stated is None and (_bounded(doc, x) or _bounded(doc, y)))]  # "7+ minutes vs 3.5 min"
    if not pairs:
        # "underneath 100GB/s while it's supposed to be around 140GB/s": a bound compared gives a bound, never "about"
        return _bound_pair(doc, kept[0]) if stated is None and len(kept) == 1 else None
    if stated is not None and len(pairs) == 1:
        stated = _stated_for(claim, pairs[0])
        if stated is None:
            return None  # the factor may be about other figures of the sentence: an uncertain reading is not judged
    if stated is not None and (len(pairs) != 1 or stated.quantity == "speedup" and verdicts.kind(pairs[0][0].quantity) not in _SPEED_KINDS):
        return None  # which pair the change is about, or a speed-up over sizes, is an uncertain reading (arithmetic says so)
    calculations, reasons = [], []
    for x, y in pairs:
        why = formats.unlike(doc, x, y)
        if why is not None:  # an FP8 peak against an FP64 one: never a ratio
            return Result([], "needs_more", why)
        if not verdicts.same_kind(x.quantity, y.quantity) or mixed_directions(doc, x, y) or _per_other(x, y) or stated is None and setup_pairs.across_chip_counts(claim, x):
            continue  # 20B parameters against 300B tokens, 900 GB/s both ways against 64 GB/s one way, 7.8 ms/step against 1.6 ms/token
        if not (x.value and y.value) or not verdicts.possible(x.quantity, x.value) or not verdicts.possible(y.quantity, y.value):
            continue
        ran = _ratio(doc, x, y, stated) if stated is not None else _ratio(doc, x, y)
        if ran is None:
            continue
        if stated is None and (abs(ran[1]["factor"] - 1) < _rules()["same_within"] or _obvious(abs(x.value), abs(y.value)) and not table_row(doc, claim)):
            # two log rows of one run nearly equal, or "40 GB/s ... drops to 20 GB/s" in a sentence: a ratio nobody asked
            # about is noise (a table's rows keep theirs: each row is read against the first)
            discard(doc, ran[0])
            continue
        calculations.append(ran[0])
        if stated is not None:
            if not ran[1]["consistent"] and stated.quantity == "percent_change":
                # "40% versus 55% represents a 37% increase": the change from the smaller, whichever the text names first
                again = _ratio(doc, y, x, stated)
                if again is not None and again[1]["consistent"]:
                    calculations[-1], ran = again[0], again
            verdict = "consistent" if ran[1]["consistent"] else "inconsistent"
            factor = ran[1]["factor"]
            below_one = 0 < stated.value < 1  # "0.31x" is said small over big, as the text says it
            computed_value = abs(ran[1]["change"]) if stated.quantity == "percent_change" else \
                (min(factor, 1 / factor) if below_one else max(factor, 1 / factor))
            if verdict == "inconsistent" and verdicts.misread(abs(stated.value), computed_value):
                return Result([], "needs_more", messages(doc.lang)["verdicts"]["misread_pair"].format(stated=stated.quote))
            shown = _share(abs(ran[1]["change"])) if stated.quantity == "percent_change" else \
                f"{computed_value:.2f}".rstrip("0").rstrip(".") + "x"
            bound = verdicts.range_or_bound(doc.text[max(0, stated.start - 24):stated.start])  # "2–3x": both ends
            words = stated.quote
            if bound is not None:  # "a speed-up of over 2x", "at least 40% lower": a floor or a ceiling, not the value
                computed = abs(ran[1]["change"]) if stated.quantity == "percent_change" else max(factor, 1 / factor)
                tolerance = doc.calculations[ran[0]]["inputs"]["tolerance"]
                verdict = "consistent" if verdicts.within_bound(bound[0], computed, abs(stated.value), tolerance) else "inconsistent"
                words = bound[1] + stated.quote if bound[0].startswith("range") else f"{bound[1]} {stated.quote}"
            if verdict == "inconsistent" and _USUALLY.search(doc.text[max(0, stated.start - 30):stated.start]):
                # "110 ms vs 2300 ms, speedup usually around 10X": the usual factor, not this pair's; said, not judged
                return Result(calculations, None, messages(doc.lang)["verdicts"]["usual_factor"].format(stated=words, computed=shown))
            return Result(calculations, verdict, messages(doc.lang)["verdicts"][verdict].format(stated=words, computed=shown))
        reasons.append(_words(doc, x, y, x.value / y.value))  # the text's order (the working may divide big by small)
    if not calculations:
        return None
    return Result(calculations, None, "; ".join(reasons))
