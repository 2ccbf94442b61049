"""The figures of a passage in the other language, said in the reader's: what an English reader of an Arabic passage
can take from it when no sentence of it can be restated offline ("100,000 chips; 19 days; $2.5 billion")."""

import re

from calculators.formatting import human
from service.explain import gist_names, restate
from service.explain.checks.comparison import increment
from service.explain.checks.rate_period import period_after
from service.explain.checks.core import said
from service.explain.checks import verdicts
from service.explain.document import Document
from service.i18n.messages import messages

MAX_FIGURES = 6  # more reads as a table, not a line
_DIGIT = re.compile(r"[0-9٠-٩]")
# Quantities whose reading is sure from the number and its unit alone; a bare number or a share says nothing without
# the sentence it belongs to (a "15%" of what?).
_SAID = {"n_chips", "time_s", "step_time_s", "steps", "cost_usd", "power_w", "params", "active_params", "tokens", "seq_len", "context_len",
         "bandwidth_bytes_per_s", "memory_bandwidth_bytes_per_s", "hbm_bytes", "bytes", "memory_bytes",
         "peak_flop_per_s", "peak_flop_per_s_total", "flop_per_s", "tokens_per_s", "n_nodes", "energy_wh"}
_DAY = 86_400
_YEAR = 365.25 * _DAY  # the calendar the figures reader converts months and years with
_CALENDAR = re.compile(r"(?P<months>months?|شهر|أشهر|شهور)|(?P<years>years?|سنة|سنوات|سنين|عام|أعوام)", re.I)


def _time(seconds: float, lang: str) -> str:
    """A duration in the unit the text most likely wrote: days from a day up, else hours, minutes or seconds."""
    units = messages(lang)["cross_figures"]["units"]
    for size, name in ((_DAY, "days"), (3600, "hours"), (60, "minutes")):
        if seconds >= size and abs(seconds / size - round(seconds / size)) < 1e-6:
            return units[name].format(n=f"{round(seconds / size):,}")
    return units["seconds"].format(n=human(seconds, ""))


def _large(value: float, lang: str) -> str:
    """A large amount in words of scale ("2.5 billion"), as a newspaper writes money and model sizes."""
    scales = messages(lang)["cross_figures"]["scales"]
    for size, name in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million")):
        if value >= size:
            return scales[name].format(n=human(value / size, ""))
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:.3g}"  # "$0.012" per million tokens, not "$0"


def _written(doc: Document, fig) -> str:
    """One figure in the answer's language, with the unit its quantity has (a price in dollars, a power in watts)."""
    units = messages(doc.lang)["cross_figures"]["units"]
    if fig.quantity == "cost_usd":
        return units["usd"].format(n=_large(fig.value, doc.lang))
    if fig.quantity in ("params", "active_params"):  # "17 مليار معلمة نشطة" is 17 billion *active* parameters
        return units[fig.quantity].format(n=_large(fig.value, doc.lang))
    if fig.quantity == "power_w":
        for size, name in ((1e9, "gw"), (1e6, "mw"), (1e3, "kw")):
            if fig.value >= size:
                return units[name].format(n=human(fig.value / size, ""))
        return units["w"].format(n=human(fig.value, ""))
    if fig.quantity == "energy_wh":  # "1300 ميغاواط ساعة": 1.3 GWh of energy, never a power
        for size, name in ((1e12, "twh"), (1e9, "gwh"), (1e6, "mwh"), (1e3, "kwh")):
            if fig.value >= size:
                return units[name].format(n=human(fig.value / size, ""))
        return units["wh"].format(n=human(fig.value, ""))
    if fig.quantity == "time_s":
        unit = _CALENDAR.search(fig.quote)  # "48 شهراً": forty-eight months, never 1,461 days the text does not write
        if unit is not None:
            name = "years" if unit.group("years") else "months"
            return units[name].format(n=human(fig.value / (_YEAR if name == "years" else _YEAR / 12), ""))
        return _time(fig.value, doc.lang)
    if fig.quantity == "step_time_s":
        return units["per_step"].format(time=_time(fig.value, doc.lang))
    if fig.quantity == "steps":
        return units["steps"].format(n=f"{fig.value:,.0f}")
    if in_bits(fig):  # "11.7 جيجا بت في الثانية": an HBM pin's or a link's rate, said in the bits the text wrote
        return units["gbit_s"].format(n=human(fig.value * 8 / 1e9, ""))
    return said(doc, fig)


_BITS = re.compile(r"\d\s*[GMT]b(?:ps|/s|it)|(?i:gigabits?|megabits?|terabits?)|(?:جيجا|ميجا|ميغا|غيغا|جيغا|تيرا)\s?(?:بت|بِت)")


def in_bits(fig) -> bool:
    """Whether a bandwidth figure is written in bits per second ("100Gbps", "11.7 جيجا بت"), not bytes."""
    return fig.quantity in ("bandwidth_bytes_per_s", "memory_bandwidth_bytes_per_s") and bool(_BITS.search(fig.quote))


def _named_chips(doc: Document, fig, text: str) -> str:
    """A count of chips with the chip the text names right after it ("512 شريحة Nvidia H800" -> "512 H800 chips")."""
    window = re.split(r"[،,.؛;:|\n0-9٠-٩]|\s(?:في|على|إلى|عن|مع|in|on|at|across|per|with|into|of)\s", doc.text[fig.end:fig.end + _NAME_WITHIN], maxsplit=1)[0]
    names = [m for m in doc.occurrences if fig.end <= m.start < fig.end + len(window)
             and (m.entry.get("category") or "") in _CHIP_CATEGORIES and restate.same_language(m.found_as, "en")
             and not gist_names.known_company(m.found_as)]  # "NVIDIA Blackwell": the chip is Blackwell
    if not names or not text.endswith(" chips"):
        return text
    name = re.sub(r"^(?:NVIDIA|Nvidia|AMD|Google|Intel)\s+", "", min(names, key=lambda m: m.start).found_as).strip("\"“”«» ")
    return f"{text[:-len(' chips')]} {name} chips" if name and not _DIGIT.fullmatch(name) else text


_PER_UNIT = re.compile(r"(?<![\u0621-\u064A])(?:لكل|كل)\s+[\u0621-\u064A]+|\b(?:per|each)\s+\w+", re.I)
_TOTALS = ("cost_usd", "memory_bytes", "hbm_bytes", "bytes", "power_w")  # amounts a "per gigawatt" before them divides
_UP_TO = re.compile(r"up to|at most|ما يصل إلى|حتى", re.I)
_AT_LEAST = re.compile(r"at least|minimum|أدنى|^\+$", re.I)
_PLUS_AFTER = re.compile(r"\+(?![\d+])")  # "320GB+" (not "8+8", nor "C++")
_RANGE_GAP = 8  # characters between a range's two bounds ("1 إلى 2 جيجابايت", "1 to 2 GB")
_NAME_WITHIN = 40  # characters after a count in which the chip's name still belongs to it ("512 شريحة "Nvidia H800"")
_CHIP_CATEGORIES = ("hardware", "chip", "accelerator")


def line(doc: Document, already: str = "") -> str:
    """' It gives these figures: ...' for a passage written in the other language, or '' when it gives none that
    read alone. Only figures written with digits: "thousands of chips" is no count to repeat; none that `already`
    (the gist said before it) says, and each with what it measures where the unit alone leaves that open."""
    if doc.lang != "en" or restate.same_language(doc.text, doc.lang):
        return ""  # an Arabic reader of an English passage reads its digits and units as written
    shown: list[str] = []
    values: set[float] = set()
    labels = messages(doc.lang)["cross_figures"]["labels"]
    for fig in doc.figures:
        if fig.quantity not in _SAID or not _DIGIT.search(fig.quote) or getattr(fig, "role", None) in ("low", "high") \
                or fig.value in values or increment(doc, fig):
            continue  # "200,000 tokens" said once; "20 more seconds" alone would read as a total
        text = _written(doc, fig)
        if text and re.fullmatch(r"[\d.,]+", text):  # "1 إلى 2 جيجابايت": a bare first bound takes its partner's unit
            partner = next((o for o in doc.figures if o.quantity == fig.quantity and 0 < o.start - fig.end <= _RANGE_GAP), None)
            high = _written(doc, partner) if partner is not None else ""
            text = messages(doc.lang)["cross_figures"]["range"].format(low=text, high=high) if high else ""
            if partner is not None:
                values.add(partner.value)
        before = re.split(r"[،,.؛;:|\n]", doc.text[max(0, fig.start - _NAME_WITHIN):fig.start])[-1]  # its own clause
        if not text or text in already or (fig.quantity in _TOTALS and _PER_UNIT.search(before)):
            continue  # "تكلفة كل غيغاواط ... 50 مليار دولار" is a cost per gigawatt: alone it would read as a total
        text = _named_chips(doc, fig, text) if fig.quantity == "n_chips" else text
        period = period_after(doc, fig)  # "100 مليار رمز في اليوم" is a rate: "100B tokens a day", not a total
        text = messages(doc.lang)["cross_figures"]["per_period"][str(period)].format(amount=text) if text and period else text
        bound = verdicts.stated_bound(doc.text[max(0, fig.start - 24):fig.start])
        if text and bound is None and _PLUS_AFTER.match(doc.text, fig.end):
            bound = ("at_least", "+")  # "320GB+", "70+ مشارك": that much or more, never exactly that much
        if text and bound is not None:  # "أكثر من 9,200 شريحة" is more than 9,200 chips, never exactly 9,200
            side = "up_to" if _UP_TO.search(bound[1]) else bound[0]  # "ما يصل إلى 6 GW" reaches 6 GW: "up to", not "less than"
            side = "at_least" if _AT_LEAST.search(bound[1]) else side  # "حداً أدنى من 8": 8 or more, "at least 8"
            text = messages(doc.lang)["verdicts"]["bound_written"][side] + " " + text
        text = labels.get("bit_rate" if in_bits(fig) else fig.quantity, "{x}").format(x=text) if text else text  # "a power of up to 6 GW"
        if text and restate.same_language(text, doc.lang):
            shown.append(text)
            values.add(fig.value)
    if not shown:
        return ""
    return " " + messages(doc.lang)["cross_figures"]["line"].format(figures="; ".join(shown[:MAX_FIGURES]))


def after_topic(doc: Document, said: str) -> str:
    """The figures line after a gist that only names the passage's subject ("The article reports on R1."): an English
    reader of an Arabic text then learns its figures too; a frame that states a claim says the figures it can vouch
    for, and no others (a cost per gigawatt, a memory whose chip it cannot tell)."""
    frames = messages(doc.lang)["gist"]["cross"]["frames"]
    for frame in (frames["topic"], frames["news_topic"]):
        head = frame.split("{subjects}")[0]
        if said.startswith(head) and said.count(". ") == 0:
            return line(doc, said)
    return ""
