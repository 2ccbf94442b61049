"""The figures of a cross-language gist written for a reader of the answer's language: a measured value with the noun
of what it measures ("a time of about 480 ms", "زمنًا قدره 480 ms"), a set-up figure with its preposition ("on 16 H100
GPUs"), durations in the unit a reader expects, amounts with their scale words; from the calculators' units, never
from the quote, which is in the other language."""

import re

from calculators.formatting import human_field

from service.explain import gist_names, reported, restate, synthesis
from service.i18n import arabic, arabic_numbers
from service.i18n.messages import messages

MAX_CHIPS = 1e6  # more chips than any training job has used: the figure was misread
_PERCENT = {"percent", "mfu", "share_of_peak", "hfu", "fraction", "percent_change", "memory_fraction_of_hbm", "utilization", "bubble_fraction"}
_TIME = {"time_s", "step_time_s", "latency_s", "doubling_time_s"}


def readable(text: str, lang: str) -> bool:
    """Whether a phrase is written in `lang` (or is language-neutral: digits, names and units)."""
    return arabic.share_of_arabic(text) < 0.3 if lang == "en" else not re.search(r"\b[a-z]{4,}\b", text)


# The most memory one accelerator carries (288 GB of HBM3E on B300 and MI355X, vendors' data sheets): above it a
# "memory per chip" reading is a node's or a cluster's total.
MAX_CHIP_MEMORY_BYTES = 300e9


# Figures whose owner a frame cannot vouch for across languages (blind readers found each said wrongly): a sum of money
# not called a cost right before it may be a unit's price, an investment or a cost per gigawatt; one chip's figure in a
# sentence naming several chips may be another chip's.
_COST_BEFORE = re.compile(r"(?:\bcosts?|\bspent|تكلفة|كلفة|تكاليف)\W+(?:\w+\W+){0,4}$", re.I)
_PER_AFTER = re.compile(r"^\W*(?:per|a|each|for each|لكل|للواحد|لكل\s+\w+)\b", re.I)
_ONE_CHIPS = frozenset({"hbm_bytes", "hbm_bytes_each", "memory_bytes_per_chip", "memory_bandwidth_bytes_per_s", "flop_per_s_per_chip", "peak_flop_per_s"})


# "each", "per GPU", "لكل شريحة": a figure the text gives per chip
EACH = re.compile(r"\beach\b|\bper\s+(?:GPU|chip|device|card|accelerator)\b|/\s*(?:GPU|chip|device)\b|لكل\s+(?:شريحة|وحدة|بطاقة|معالج)|كل\s+(?:شريحة|وحدة)", re.I)


# "per step", "step time", "each iteration", "s/it", "لكل خطوة": a time the text ties to one training step
_PER_STEP = re.compile(r"\b(?:per|each|every|one|a|the)\s+(?:training\s+)?(?:step|iteration|iter)\b|\b(?:step|iteration|iter)[- ]?times?\b"
                       r"|/\s*(?:step|it(?:er)?)\b|\bs/it\b|(?:لكل|كل)\s+(?:خطوة|تكرار)|زمن\s+(?:ال)?خطوة", re.I)


# "at the end of each step", "في نهاية كل خطوة": a part of the step, whose time is not the step's
_PART_OF_STEP = re.compile(r"\b(?:end|start|beginning|part)\s+of\s+(?:each|every|the|a)\s+(?:training\s+)?(?:step|iteration)\b"
                           r"|\b(?:after|before|during)\s+(?:each|every)\s+(?:step|iteration)\b|(?:نهاية|بداية|بعد|قبل)\s+كل\s+(?:خطوة|تكرار)", re.I)


def as_written(doc, fig, start: int, end: int):
    """The figure with a quantity no more precise than its words: memory per chip only beside "each" or "per GPU", a
    step time only beside "per step" or "iteration time" (a time over four iterations, or the all-gather at the end
    of a step, is a time, not a step time)."""
    near = doc.text[max(start, fig.start - 40):min(end, fig.end + 24)]
    if fig.quantity == "hbm_bytes" and EACH.search(near):
        return fig._replace(quantity="hbm_bytes_each")
    if fig.quantity == "step_time_s" and (not _PER_STEP.search(near) or _PART_OF_STEP.search(near)):
        return fig._replace(quantity="time_s")
    return fig


def owner_unsure(doc, fig, start: int, end: int, reference: re.Pattern, against: re.Pattern | None = None) -> bool:
    """Whether a cross-language frame must leave a figure out: money the text does not call a cost right before it, or
    a cost per something ("$50B per gigawatt"); one chip's figure in a clause naming several chips (what follows
    "compared with" is not the figure's owner); a change set against another named thing ("67% more than NVL72
    offers", said of someone else's product, is a lead over a rival, not "an improvement" the author reports)."""
    if fig.quantity == "percent_change" and against is not None and _against_named(doc, start, end, against) \
            and reported.speaker([doc.text[start:end]], "ar" if arabic.ARABIC_LETTER.search(doc.text[start:end]) else "en") == "text":
        return True  # "our schedule outperforms 1F1B by 20%" is the author's own gain; a vendor's lead over a rival is not
    if fig.quantity == "cost_usd":
        return not _COST_BEFORE.search(doc.text[max(start, fig.start - 60):fig.start]) or bool(_PER_AFTER.match(doc.text[fig.end:fig.end + 20]))
    compared = reference.search(doc.text, fig.end, end)
    end = compared.start() if compared else end
    chips = {m.entry.get("id") for m in doc.mentions if m.kind == "chip" and start <= m.start < end and not m.generic}
    return fig.quantity in _ONE_CHIPS and len(chips) > 1


def _against_named(doc, start: int, end: int, against: re.Pattern) -> bool:
    """Whether the sentence sets what it measures against a named thing ("outperforms NVL72", "تتفوق على NVL72")."""
    for found in against.finditer(doc.text, start, end):
        after = doc.text[found.end():end]
        at = found.end() + len(after) - len(after.lstrip())
        if any(at <= o.start <= at + 30 for o in doc.occurrences) or _NAME_AT.match(doc.text, at):
            return True
    return False


_NAME_AT = re.compile(r"[A-Z][\w.-]*[A-Za-z0-9]|[A-Za-z]+\d")  # "NVL72", "GB200", "Nvidia": a name, not a plain word


def measure_phrase(fig, partner, kind: str | None, lang: str, direction: str = "", label: str = "", bound: str = "") -> str:
    """One measured figure (or a pair) with the noun of what it measures: "a time of about 480 ms"; a bound the text
    puts on it kept ("less than 10 ns", "up to 147 TFLOP/s"): without it the figure would be a different claim."""
    words = messages(lang)["gist"]["cross"]
    noun = words["quantities"].get(fig.quantity)
    if noun is None or fig.quantity in ("hbm_bytes", "hbm_bytes_each") and fig.value > MAX_CHIP_MEMORY_BYTES:
        return ""  # "640 GB of memory per chip" is no chip: a total read as one chip's memory is left out, not said
    if fig.quantity == "percent_change" and direction:
        noun = words["quantities"]["percent_" + direction]
    if fig.quantity == "percent_change":  # the noun says the direction ("a reduction of 97%"), or none is vouched for: the size
        fig = fig._replace(value=abs(fig.value))
    value = _value(fig, lang)
    if not value:
        return ""
    if kind and partner is not None:
        other = _value(partner, lang)
        if other:
            said_twice = {w for w in noun["noun"].split() if len(w) > 3} & set(label.split())  # "a step time in the step time"
            noun_said = words["labelled"].format(noun=noun["noun"], label=label) if label and not said_twice else noun["noun"]
            return words["pairs"][kind].format(noun=noun_said, a=value, b=other) + _worked_out(fig, partner, kind, value, lang)
    if bound:
        value = words["bounds"][bound] + _value(fig._replace(approx=False), lang)
    return noun["one"].format(value=value)


_BOUNDS = (("below", re.compile(r"(?:\b(?:less than|fewer than|under|below|at most)|(?<![\u0621-\u064A])(?:أقل من|دون))\s*[~≈]?\s*$", re.I)),
           ("above", re.compile(r"(?:\b(?:more than|over|above|at least|exceeds?|exceeding)|(?<![\u0621-\u064A])(?:أكثر من|تزيد عن|تزيد على|يزيد عن|يزيد على|تجاوز|يتجاوز))\s*[~≈]?\s*$", re.I)),
           ("up_to", re.compile(r"(?:\bup to|(?<![\u0621-\u064A])(?:حتى|تصل إلى|يصل إلى|تصل الى|يصل الى))\s*[~≈]?\s*$", re.I)))


def bound_of(text: str, fig) -> str:
    """The bound the words just before a figure put on it: 'below' ("under 10 ns", "أقل من"), 'above' ("more than"),
    'up_to' ("up to 147", "تصل إلى"); '' for none."""
    before = text[max(0, fig.start - 24):fig.start]
    return next((name for name, pattern in _BOUNDS if pattern.search(before)), "")


def _worked_out(fig, partner, kind: str, value: str, lang: str) -> str:
    """A change or a comparison the sentence makes, worked out in the answer's language (" (about 43% less)",
    " (أي إن 996 TFLOP/s أكبر بنحو 3%)"); two percentages differ by points; '' for a range or a value of 0."""
    if kind not in ("change", "versus") or fig.value <= 0 or partner.value <= 0:
        return ""
    percent = fig.quantity in _PERCENT
    if kind == "change":
        said = synthesis.change_words(fig.value, partner.value, lang, "change", percent=percent)
    else:
        said = synthesis.change_words(partner.value, fig.value, lang, "versus", _value(fig._replace(approx=False), lang), percent)
    return f" ({said})"


def setup_phrase(fig, lang: str, sentence: str) -> tuple[str, str] | None:
    """A figure of the set-up (the model's size, the chips, the layout) as the answer reads it: bare ("16 H100 GPUs")
    and with the preposition that ties it to a result ("on 16 H100 GPUs"); None when it has no reading in `lang`."""
    words = messages(lang)["gist"]["cross"]["setup"]
    if fig.quantity in ("params", "active_params"):
        forms = words[fig.quantity]
        amount = arabic_numbers.amount(fig.value, forms["counted"]) if lang == "ar" else _english_amount(fig.value, forms["counted"])
        after = _DUAL_NOMINATIVE.sub(lambda m: m.group(1) + "ي", amount) if lang == "ar" else amount
        return forms["bare"].format(amount=amount), forms["pre"].format(amount=after)  # "من ملياري معامل", not "مليارا"
    if fig.quantity == "n_chips" and fig.value > MAX_CHIPS:
        return None  # "175B" read as a chip count is a model's size misread: no job has that many chips
    if fig.quantity == "n_chips" and fig.quote in sentence and not _CHIP_NOUN.match(
            _LEADING_COUNT.sub("", fig.quote) + sentence[sentence.find(fig.quote) + len(fig.quote):]):
        return None  # "144 short text messages", "144 streaming multiprocessors": a count is chips only when its noun says so
    if fig.quantity == "n_nodes" and float(fig.value).is_integer():
        forms = words["nodes"]
        nodes = arabic_numbers.count(fig.value, forms) if lang == "ar" else \
            f"{arabic_numbers.digits(fig.value)} {forms['one'] if fig.value == 1 else forms['plural']}"
        return nodes, words["chips"]["pre"].format(reading=nodes)
    # "8 A100 GPUs" in a node reads as any count of chips does.
    reading = restate.figure(fig._replace(quantity="n_chips") if fig.quantity == "chips_per_node" and fig.chip else fig, lang)
    if reading == fig.quote or not readable(reading, lang):
        return None  # no reading of it in the answer's language: the quote would be a word of the other one
    # The chip as the sentence names it: no variant ("NVL72", "SXM") the sentence does not write.
    reading = " ".join(w for w in reading.split() if not (_VARIANT.fullmatch(w) and w.lower() not in sentence.lower()))
    forms = words["chips" if fig.quantity in ("n_chips", "chips_per_node") else "other"]
    return forms["bare"].format(reading=reading), forms["pre"].format(reading=reading)


# A dual scale word in the nominative ("مليارا معامل") takes the genitive after a preposition ("من ملياري معامل").
_DUAL_NOMINATIVE = re.compile(r"^(مليار|مليون|تريليون|ألف)ا(?= )")
_VARIANT = re.compile(r"(?:NVL|SXM|PCIe)\d*|\d+GB")


def _approx(fig, lang: str) -> str:
    return messages(lang)["gist"]["cross"]["about"] if fig.approx else ""


def _value(fig, lang: str) -> str:
    """A figure's value written for a reader of `lang` from its value in the calculators' units (not the quote,
    which may be in the other language): "480 ms", "19 يومًا", "$191 million", "24 ضعفًا"."""
    words = messages(lang)["gist"]["cross"]
    value = fig.value
    fig = fig._replace(quantity=fig.quantity.replace("_per_device", "_per_chip").replace("hbm_bytes_each", "hbm_bytes"))  # one device's value reads as one chip's
    if fig.quantity in _PERCENT:
        shown = f"{arabic_numbers.digits(round(value * 100, 2))}%"
    elif fig.quantity in _TIME:
        shown = _duration(value, lang)
    elif fig.quantity in ("cost_usd", "unit_price_usd"):
        shown = arabic_numbers.amount(value, words["dollar"]) if lang == "ar" else "$" + _english_amount(value, "").strip()
    elif fig.quantity in ("ratio", "speedup"):
        shown = arabic_numbers.count(value, words["times"]) if lang == "ar" else f"{arabic_numbers.digits(value)}×"
    elif fig.quantity in ("tokens_per_s", "tokens_per_s_per_chip", "sequences_per_s"):
        counted = words["tokens_per_s" if fig.quantity != "sequences_per_s" else "samples_per_s"]
        value = round(value) if value >= 100 else value  # "36,653 tokens/s", not "36,653.24"
        shown = arabic_numbers.count(value, counted) if lang == "ar" else f"{arabic_numbers.digits(value)} {counted['plural']}"
    else:
        try:
            shown = human_field("flop_per_s" if "flop_per_s" in fig.quantity else fig.quantity, value)
            if "flop_per_s" in fig.quantity and 1e12 <= value < 1e16:  # "1,979 TFLOP/s" as chips are quoted, not "1.979 PFLOP/s"
                shown = f"{arabic_numbers.digits(round(value / 1e12, 1))} TFLOP/s"
        except (KeyError, ValueError, TypeError):
            return ""
        if not re.search(r"[A-Za-z%]", shown):
            return ""  # a bare number: what it counts is not known, so it is not said
    return _approx(fig, lang) + shown


_DURATIONS = ((365.25 * 86400, "year"), (30.44 * 86400, "month"), (86400, "day"), (3600, "hour"), (60, "minute"))


def _duration(seconds: float, lang: str) -> str:
    """A duration in the unit a reader expects: "480 ms", "21.5 s", "19 days", "4 سنوات"."""
    if seconds < 1e-6:  # "under 10 ns" is no "0 ms": each scale in its own unit
        return f"{arabic_numbers.digits(float(f'{seconds * 1e9:.3g}'))} ns"
    if seconds < 1e-3:
        return f"{arabic_numbers.digits(float(f'{seconds * 1e6:.3g}'))} µs"
    if seconds < 1:
        return f"{arabic_numbers.digits(round(seconds * 1000, 1))} ms"
    if seconds < 120:
        return f"{arabic_numbers.digits(round(seconds, 2))} s"
    units = messages(lang)["gist"]["cross"]["durations"]
    for size, unit in _DURATIONS:
        number = round(seconds / size, 1)
        if number >= 2 or (number >= 1 and number.is_integer()):  # "54 days", not "1.8 months"
            forms = units[unit]
            if lang == "ar":
                return arabic_numbers.count(number, forms)
            return f"{arabic_numbers.digits(number)} {forms['one'] if number == 1 else forms['plural']}"
    return f"{arabic_numbers.digits(round(seconds))} s"


def _english_amount(value: float, noun: str) -> str:
    """7e9 parameters as "7 billion parameters", 30e6 as "30 million"."""
    for scale, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million")):
        if abs(value) >= scale:
            return f"{arabic_numbers.digits(round(value / scale, 2))} {word} {noun}".strip()
    return f"{arabic_numbers.digits(value)} {noun}".strip()




def shared_head_dropped(old: str, new: str) -> str:
    """The old setting without the words it shares at its head with the new one: "expert parallelism over 32 GPUs"
    after "expert parallelism over 8 GPUs" is "32 GPUs"; a phrase that would keep no figure stays whole."""
    a, b = old.split(), new.split()
    n = 0
    while n < min(len(a), len(b)) - 1 and a[n] == b[n]:
        n += 1
    rest = " ".join(a[n:])
    return rest if n and re.search(r"\d", rest) else old


# Quantities a reading names only by their figure ("a ratio", "a share", "an amount"): said alone, they mislead.
_UNNAMED = {"percent", "ratio", "fraction", "bytes", "number"}
# What a chip has (its memory, its peak, its links), never what a run or a model takes: no model or layout is tied to it.
_SPEC = {"hbm_bytes", "hbm_bytes_each", "peak_flop_per_s", "bandwidth_bytes_per_s", "memory_bandwidth_bytes_per_s"}
_PER_CHIP = {"flop_per_s_per_chip": "flop_per_s_per_device", "tokens_per_s_per_chip": "tokens_per_s_per_device",
             "memory_bytes_per_chip": "memory_bytes_per_device"}
_PER_DEVICE = re.compile(r"(?:per|/|each|every)[\s_-]*(?:device|core)|devices?\b|\bcores?\b|لكل (?:جهاز|نواة)", re.I)
# What ends the clause a figure is said in: a stop, a colon, a bracket, or a word that opens another clause or a contrast.
_CLAUSE_BREAK = re.compile(r"[;:؛()\[\]\n]|[,،]\s*(?:so|which|while|but|whereas|although|though|because|since|as|"
                           r"لذا|لكن|بينما|مما|لأن|إذ|حيث)\b|\b(?:whose|than|compared|versus|vs\.?|while|whereas|but|because|"
                           r"since|although|though|unlike)\b|(?<![\u0621-\u064A])(?:بينما|لكن|مقارنة|بخلاف|لأن|أما)"
                           r"(?![\u0621-\u064A])", re.I)


def unnamed(fig, direction: str) -> bool:
    """Whether a figure's reading does not say what it measures: a bare share or ratio, an amount of bytes, a change
    with no word for its direction."""
    return fig.quantity in _UNNAMED or (fig.quantity == "percent_change" and not direction)


def ties(text: str, placed: list) -> bool:
    """Whether the set-up figures can follow the measured ones as theirs ("an MFU of 15% for a 7B model on 8 A100s"):
    only when no measured figure is a chip's own (its memory, its peak), no set-up quantity is said twice ("7B and
    70B": which one?), and each set-up figure is in the clause of a measured one. Otherwise the set-up is left out."""
    measured = [f for kind, f in placed if kind == "measured"]
    setup = [f for kind, f in placed if kind == "setup"]
    if not measured or not setup:
        return True
    if any(f.quantity in _SPEC for f in measured):
        return False
    quantities = [f.quantity for f in setup]
    if len(set(quantities)) < len(quantities):
        return False
    return all(any(not _CLAUSE_BREAK.search(text, min(s.end, m.end), max(s.start, m.start)) for m in measured)
               for s in setup)


def compared_quantity(doc, start: int, end: int) -> str:
    """The named quantity of the first figure a problem or a question states ("an MFU of 15%"): "lower than the
    reported 50%" compares the same thing, so a bare percentage after it reads as that quantity; '' for none."""
    first = next((f for f in doc.figures if start <= f.start < end and f.quantity in _LIKE_PERCENT), None)
    return first.quantity if first is not None else ""


_LIKE_PERCENT = {"mfu", "hfu", "share_of_peak", "memory_fraction_of_hbm"}

def per_device(text: str, fig):
    """A per-chip figure as the text gives it: per device or per core ("36.7 TFLOP/s per device"; JAX's device on a TPU
    v3 is one core) is said per device; a rate the text ties to no unit at all (a log's "TFLOP/s: 36.7") is said as a
    rate, with no "per chip" the text never wrote."""
    if fig.quantity not in _PER_CHIP:
        return fig
    near = (max(0, fig.start - 40), min(len(text), fig.end + 24))
    label = _LABEL_BEFORE.search(text[max(0, fig.start - 30):fig.start])  # "Tokens/s/device: 36653", a log's own label
    if _PER_DEVICE.search(text, fig.start, near[1]) or (label and _PER_DEVICE.search(label.group(0))):
        return fig._replace(quantity=_PER_CHIP[fig.quantity])
    if fig.quantity != "memory_bytes_per_chip" and not _PER_CHIP_SAID.search(text, *near):
        return fig._replace(quantity=fig.quantity.replace("_per_chip", ""))
    return fig


# The noun a chip count is said with, within a few words: a chip, a card, a device, a named chip ("H100"); not a core.
_CHIP_NOUN = re.compile(r"\s*(?:[-x×]\s*)?(?:[\w.-]+\s+){0,2}?(?!معالج\S* متعدد|multiprocessor|streaming|cores?\b|نوا)"
                        r"(?:gpus?|chips?|cards?|accelerators?|tpus?|devices?|nodes?|[A-Za-z]+\d[\w-]*|وحد|شريح|شرائح|معالج|بطاق|مسرع|"
                        r"رقاق|رقائق|جهاز|أجهزة|عقد|خاد)", re.I)


_LEADING_COUNT = re.compile(r"^[~≈]?\s*[\d٠-٩][\d٠-٩.,]*\s*[kKM]?")


def unit_price(text: str, fig):
    """A cost its own clause gives for one unit ("the price of one unit is about $30,000", "$25k per GPU") is a unit
    price, never the whole system's cost: said as a price per unit."""
    if fig.quantity != "cost_usd":
        return fig
    before, after = text[max(0, fig.start - 45):fig.start], text[fig.end:fig.end + 25]
    if _UNIT_BEFORE.search(before) or _UNIT_AFTER.match(after):
        return fig._replace(quantity="unit_price_usd")
    return fig


_UNIT_BEFORE = re.compile(r"(?:(?:unit|list|retail|sticker) price|price (?:of|for) (?:one|a single|each|an?)\b|(?:each|one|a single) "
                          r"(?:gpu|chip|card|unit|accelerator)s?\b[^.,;]{0,20}(?:costs?|priced)|سعر (?:الوحدة|الشريحة|البطاقة)|"
                          r"(?:الوحدة|الشريحة|البطاقة) الواحدة)[^.;!?؛]{0,25}$", re.I)
_UNIT_AFTER = re.compile(r"\s*(?:(?:per|/|a|an|for (?:each|one|a single))\s*(?:gpu|chip|card|unit|accelerator|piece)\b|each\b|apiece\b|"
                         r"(?:لكل|للـ?|لل)\s*(?:وحدة|شريحة|بطاقة)|للوحدة|للشريحة)", re.I)


_LABEL_BEFORE = re.compile(r"[\w/.-]+\s*[:=]\s*$")
_PER_CHIP_SAID = re.compile(r"(?:per|/|each|every|a|an)[\s_-]*(?:gpu|chip|accelerator|card|tpu|h100|h200|a100|b200)|"
                            r"(?:لكل|كل) (?:شريحة|وحدة|بطاقة)", re.I)


# What a reader judges a run by first, when a sentence gives more results than a gist can carry.
_RANK = ("mfu", "hfu", "share_of_peak", "tokens_per_s_per_chip", "tokens_per_s_per_device", "tokens_per_s", "samples_per_s",
         "sequences_per_s",
         "flop_per_s_per_chip", "flop_per_s_per_device", "flop_per_s", "step_time_s", "time_s", "speedup", "percent_gain",
         "percent_loss", "cost_usd", "unit_price_usd")


def rank(fig) -> int:
    """A result's place in _RANK (anything else after, memory last among them)."""
    return _RANK.index(fig.quantity) if fig.quantity in _RANK else len(_RANK)


# A bracket glosses inside a clause ("For H100 SXM and 16-bit (fp16 or bf16) the peak is 989"): it ends no subject's clause.
_SUBJECT_BREAK = re.compile(_CLAUSE_BREAK.pattern.replace("[;:؛()\\[\\]\\n]", "[;:؛\\n]"), re.I)


def in_clause_of_results(doc, start: int, end: int, subjects: list[str], setup: set[str]) -> list[str]:
    """The subjects named in the clause of one of the span's results ("On TPU, the author reports 10 ns" only when the
    TPU and the 10 ns share a clause): a name elsewhere in the sentence is not what the figure is about."""
    results = [f for f in doc.figures if start <= f.start < end and f.quantity not in setup
               and f.quantity not in ("number", "expression", "bits")]
    terms = {t["id"]: t for t in doc.terms}
    kept = []
    for name in subjects:
        named = [o for o in doc.occurrences if start <= o.start < end
                 and gist_names.name_of(o, terms.get(o.entry["id"]), doc.lang) == name]
        if named and all(o.entry.get("category") == "precision" for o in named):
            continue  # "300 PFLOP/s (BF16)": the number format qualifies the figure, it is not what the figure is about
        spans = [(o.start, o.end) for o in named]
        if any(not _SUBJECT_BREAK.search(doc.text, min(b, f.end), max(a, f.start)) for a, b in spans for f in results):
            kept.append(name)
    return kept

