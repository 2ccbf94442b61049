"""The gist built from parts, not a reworded sentence: a reported problem (two figures the text compares, each under the
condition its own clause names, the cause the text gives, what the author expected) or a reported change (a quantity
from one figure to another); each slot is filled from the text or the frame is not used."""

import re

from service.explain import pattern_cache, person, reported, synthesis
from service.explain.document import Document
from service.i18n import arabic_numbers
from service.i18n.messages import messages

# A figure's own clause ends at a comma, a semicolon or a word that opens another clause ("since", "than", "whereas").
_CLAUSE_EDGE = pattern_cache.lazy(r"[,;:(—–]|\b(?:since|because|as|than|whereas|while|but|and|vs\.?|versus|compared (?:to|with))\b"
                                  r"|(?:مقابل|مقارنة|بينما|لأن|بسبب|،|؛)", re.I)
# The quantity in the text's own words before its figure: "the forward time is around 480ms" -> "forward time".
_QUANTITY_EN = pattern_cache.lazy(r"\b(?:the|our|my|their|its)\s+(?P<q>[a-z][a-z0-9/ -]{1,32}?)\s+(?:is|was|are|were|takes|took|"
                                  r"reaches|reached|stays|stayed|of|at|around|about|sits|hits|gets)\b[^,;]*$", re.I)
# What the text names as the cause: "bounded by X", "dominated by X", "due to X", "because of X", "caused by X".
_CAUSE_EN = pattern_cache.lazy(r"\b(?:bound(?:ed)?|dominated|limited|bottlenecked|caused|slowed(?: down)?|held back) by\s+"
                               r"(?P<np>[^,;.()]{3,60}?)(?=\s*(?:[,;.()]|$|\b(?:which|and|but|so|since|because)\b))"
                               r"|\b(?:due to|because of)\s+(?P<np2>[^,;.()]{3,60}?)(?=\s*(?:[,;.()]|$|\b(?:which|and|but|so)\b))", re.I)
_CAUSE_AR = pattern_cache.lazy(r"(?:بسبب|نتيجة|يعود (?:ذلك|السبب) إلى)\s+(?P<np>[^،.؛()]{3,60}?)(?=\s*(?:[،.؛()]|$))")
# What the author expected: "I would expect X", "we expected X", "X should be much faster".
_EXPECT_EN = pattern_cache.lazy(r"\b(?:I|we)\s+(?:would|'d)\s+(?:have\s+)?expect(?:ed)?\s+(?:that\s+)?(?P<x>[^;.]{5,90})"
                                r"|\b(?:I|we)\s+expected\s+(?:that\s+)?(?P<x2>[^;.]{5,90})", re.I)
_NEGATION = pattern_cache.lazy(r"\b(?:not|no|never|n't|without)\b|(?:لا|لم|لن|ليس|دون|بدون)(?![\u0621-\u064A])", re.I)
# A text that names its change: "this PR", "the patch", "the fix", "pull request".
_ACTOR_EN = pattern_cache.lazy(r"\b(?:this|the) (?:pr|change|patch|fix|commit)\b|\bpull request\b", re.I)
# The quantity that changed, in the text's words: "forward computation improved from", "the throughput has increased,
# reaching", "dropping the bubble from".
_CHANGED_EN = (r"(?:improved|dropped|decreased|increased|rose|fell|went (?:up|down)|was (?:reduced|cut|raised|lowered)|grew|"
               r"shrank|went)")
_SUBJECT_CHANGE_EN = pattern_cache.lazy(r"(?:(?:^|[,;:]\s*)(?:so\s+(?!(?:far|much|many|long)\b)(?:that\s+)?)?|\b(?:the|our|my|their|its)\s+)(?P<q>[a-z][a-z0-9/ -]{1,32}?)\s+"
                                        r"(?:has |have )?(?:indeed |also |now )?" + _CHANGED_EN + r"\b", re.I)
_VERB_CHANGE_EN = pattern_cache.lazy(r"\b(?:dropping|cutting|raising|reducing|lowering|increasing|decreasing|dropped|cut|raised|"
                                     r"reduced|lowered|increased|decreased|boosted|boosting)\s+"
                                     r"(?P<q>(?!(?:its|their|his|her)\b)(?:the\s+)?[a-z][a-z0-9/ .'’-]{1,46}?)$", re.I)  # "increased the Llama-3.1-70B run's MFU"


def _changed_quantity(doc: Document, first, second) -> str:
    """What changed, as the text names it before its figures in the clause or sentence that says the change; ''."""
    start, _ = next(((a, b) for a, b in doc.sentences if a <= second.start < b), (second.start, second.end))
    clause = _clause(doc, second)[0]
    stop = first.start if first.start >= start else second.start
    for begin in (clause, start):
        fragment = re.sub(r"\s*(?:from)?\s*[~≈]?\s*$", "", doc.text[begin:stop]).strip()
        found = _VERB_CHANGE_EN.search(fragment) or next(reversed(list(_SUBJECT_CHANGE_EN.finditer(fragment))), None)
        if found and not _NEGATION.search(found.group("q")) and len(found.group("q").split()) <= 5:
            return found.group("q").strip()
    return ""
# The setting a sentence opens with: "For the 5B model (about ...), forward time improved ..." -> "for the 5B model".
_SETUP_EN = pattern_cache.lazy(r"^(?:for|on|with)\s+(?P<setup>[^,()]{3,50}?)(?:\s+with (?:the )?following \w+)?\s*(?:\([^()]*\))?\s*,", re.I)
MAX_FRAME_WORDS = 60


def _said(figure, text: str = "") -> str:
    """A figure as the text gives it, its "~" and its "per GPU" kept: an approximate figure is not restated as exact."""
    quote = figure.quote.strip()
    per = re.match(r"\s+per\s+[\w/-]+", text[figure.end:]) if text else None
    quote += per.group(0) if per and "per" not in quote else ""
    return "~" + quote if figure.approx and not quote.startswith(("~", "≈", "about", "around")) else quote


def _clause(doc: Document, figure) -> tuple[int, int]:
    """The span of the figure's own clause inside its sentence."""
    start, end = next(((a, b) for a, b in doc.sentences if a <= figure.start < b), (figure.start, figure.end))
    before = doc.text[start:figure.start]
    edges = [m.end() for m in _CLAUSE_EDGE.finditer(before)]
    after = _CLAUSE_EDGE.search(doc.text, figure.end, end)
    return start + (edges[-1] if edges else 0), after.start() if after else end


_SETTING_BEFORE = pattern_cache.lazy(r"(?:\b(?:with|in|on|using|under|via|for|at)|(?:مع|في|على|باستخدام))\s+(?:the\s+|an?\s+)?(?:\S+\s+)?$", re.I)


def _conditions(doc: Document, span: tuple[int, int]) -> list:
    """The glossary terms a clause names as its setting ("with ZeRO-2", "on 8 GPUs", "in the 1F1B schedule"): the figure's
    condition; a term that is the measured thing itself ("the forward pass takes 480ms") is not a condition."""
    return [o for o in doc.occurrences if span[0] <= o.start < span[1] and _SETTING_BEFORE.search(doc.text[max(span[0], o.start - 30):o.start])]


def _family(term_id: str) -> str:
    return re.sub(r"[\d.]+$", "", term_id)


def _condition_names(doc: Document, first, second) -> tuple[str, str] | None:
    """(condition of first, condition of second) as the text writes them: the terms named in each figure's own clause
    and not in the other's; a figure whose clause names none takes the one sibling setting the text names elsewhere
    ("I run ZeRO-3" beside "with ZeRO-2 it takes 60ms"); None when either stays unnamed."""
    own = [_conditions(doc, _clause(doc, f)) for f in (first, second)]
    ids = [{o.entry["id"] for o in terms} for terms in own]
    kept = [[o for o in terms if o.entry["id"] not in ids[1 - k]] for k, terms in enumerate(own)]
    for a in kept[0]:  # two settings of one kind ("with ZeRO-3" / "with ZeRO-2"), never a setting against a node count
        for b in kept[1]:
            if a.entry.get("category") == b.entry.get("category") and a.entry["id"] != b.entry["id"]:
                return doc.text[a.start:a.end], doc.text[b.start:b.end]
    for k in (0, 1):
        if kept[1 - k]:  # no setting of the same kind in its own clause: the one sibling the text names elsewhere
            other = kept[1 - k][0]
            family = _family(other.entry["id"])
            siblings = {o.entry["id"]: o for o in doc.occurrences if _family(o.entry["id"]) == family and o.entry["id"] != other.entry["id"]}
            if family != other.entry["id"] and len(siblings) == 1:
                sibling = next(iter(siblings.values()))
                names = (sibling, other) if k == 0 else (other, sibling)
                return tuple(doc.text[o.start:o.end] for o in names)
    return None


def _quantity(doc: Document, figure, lang: str) -> str:
    """The compared quantity in the text's own words where its clause names it, else the quantity's plain label."""
    span = _clause(doc, figure)
    if lang != "ar":
        found = _QUANTITY_EN.search(doc.text[span[0]:figure.start])
    else:
        found = None
    label = messages(lang)["card"]["fields"].get(figure.quantity, "")
    if lang != "ar" and found and not _NEGATION.search(found.group("q")):
        said = found.group("q").strip()
        return label if len(said.split()) == 1 and said.lower() in label.lower().split() else said  # "the step" -> "step time"
    return label


def _cause(doc: Document, indexes: list[int], lang: str) -> tuple[int, str] | None:
    """(sentence, core noun phrase) of the first cause the text states among these sentences, not negated."""
    pattern = _CAUSE_AR if lang == "ar" else _CAUSE_EN
    for i in indexes:
        sentence = doc.text[slice(*doc.sentences[i])]
        found = pattern.search(sentence)
        if found and not _NEGATION.search(sentence[:found.start()].split(",")[-1]):
            return i, (found.group("np") or found.groupdict().get("np2") or "").strip()
    return None


def _expectation(doc: Document, indexes: list[int], lang: str) -> tuple[int, str] | None:
    """(sentence, what was expected) in words that follow "and expected": "X is faster" -> "X to be faster"."""
    if lang == "ar":
        return None
    for i in indexes:
        found = _EXPECT_EN.search(doc.text[slice(*doc.sentences[i])])
        if found:
            said = (found.group("x") or found.group("x2")).strip()
            said = re.sub(r"^(?P<np>[^,]{1,60}?)\s+(?:is|are|will be|would be)\s+", r"\g<np> to be ", said, count=1)
            return i, reported.third_person(said, lang)
    return None


def problem(doc: Document, indexes: list[int], who: str) -> tuple[list[int], str] | None:
    """([sources], sentence) for a reported comparison: "{who} find {quantity} {ratio} with {A} than with {B} ({va} vs
    {vb}); they attribute it to {cause}, and expected {expectation}", or None when a slot it needs is not in the text."""
    lang = doc.lang
    for first, second, kind in synthesis.pairs(doc, indexes):
        if kind != "versus":
            continue
        named = _condition_names(doc, first, second)
        quantity = _quantity(doc, first, lang) or _quantity(doc, second, lang)
        if named is None or not quantity:
            continue
        words = messages(lang)["gist_frames"]
        ratio = first.value / second.value
        if abs(ratio - 1) < 0.005:
            continue
        if ratio >= 1.5:
            key, amount = "times", (f"{ratio:.0f}" if ratio >= 10 else f"{ratio:.1f}".rstrip("0").rstrip("."))
            if lang == "ar":
                amount = arabic_numbers.count(float(amount), messages(lang)["gist_synth"]["times_forms"])
        else:
            key, amount = ("higher" if ratio > 1 else "lower"), f"{abs(ratio - 1) * 100:.0f}"
        sources = sorted({i for i in indexes for f in (first, second) if doc.sentences[i][0] <= f.start < doc.sentences[i][1]})
        text = words["compare_" + key].format(subject=words["subjects"][who], find=words["find"][who],
                                              quantity=quantity, amount=amount, a=named[0], b=named[1],
                                              va=_said(first, doc.text), vb=_said(second, doc.text))
        cause = _cause(doc, indexes, lang)
        if cause is not None and cause[1]:
            text += words["cause"].format(pronoun=words["pronouns"][who], cause=reported.third_person(cause[1], lang))
            sources.append(cause[0])
        expected = _expectation(doc, indexes, lang)
        if expected is not None:
            text += words["expected"].format(expectation=expected[1].rstrip(".,; "))
            sources.append(expected[0])
        if len(text.split()) > MAX_FRAME_WORDS:
            continue
        return sorted(set(sources)), text[:1].upper() + text[1:]
    return None


def change(doc: Document, indexes: list[int]) -> tuple[list[int], str] | None:
    """([sources], sentence) for a reported change: "{actor} raised {quantity} from {A} to {B} ({change})" when the text
    names its change (a PR, a patch), else "{quantity} went from {A} to {B} ({change})"; None when no change is said."""
    if doc.lang == "ar":
        return None
    words = messages(doc.lang)["gist_frames"]
    items, sources = [], []
    for first, second, kind in synthesis.pairs(doc, indexes):
        if kind != "change":
            continue
        quantity = _changed_quantity(doc, first, second)
        if not quantity:
            continue
        if _ACTOR_EN.search(doc.text):  # "The fix cut the e2e time ...": an article inside the sentence is lower case
            quantity = re.sub(r"^(The|A|An)\b", lambda m: m.group(1).lower(), quantity)
        said = synthesis.change_words(first.value, second.value, doc.lang, "change", percent=first.unit == second.unit == "%")
        items.append(words["change_item" if _ACTOR_EN.search(doc.text) else "went_item"].format(quantity=quantity, a=_said(first, doc.text), b=_said(second, doc.text),
                                                 change=said))
        sources += [i for i in indexes for f in (first, second) if doc.sentences[i][0] <= f.start < doc.sentences[i][1]]
    if not items:
        return None
    setup = _SETUP_EN.match(doc.text[slice(*doc.sentences[min(sources)])].strip())
    tail = words["on_setup"].format(setup=setup.group("setup").strip()) if setup else ""
    actor = _ACTOR_EN.search(doc.text)
    ups = {second.value > first.value for first, second, kind in synthesis.pairs(doc, indexes) if kind == "change"}
    if actor:
        verb = words["changed" if len(ups) > 1 else "raised" if True in ups else "cut"]
        text = words["change_by"].format(actor=actor.group(0)[0].lower() + actor.group(0)[1:], verb=verb, items=words["and"].join(items)) + tail
    else:
        text = words["and"].join(items) + tail
        action = _ACTION_SO_EN.match(doc.text[slice(*doc.sentences[min(sources)])].strip())
        if action and person.has_verb(action.group("action")) and not setup:  # "We moved X off the critical path, so the
            # step time dropped ...": what the author did is the point the change measures, not only the change
            said = person.third_person(action.group("action"), doc.lang)
            text = words["action_so"].format(action=said[:1].upper() + said[1:], items=text[:1].lower() + text[1:])
    return sorted(set(sources)), text[:1].upper() + text[1:]


# What the author did before ", so" the change it brought: "We moved the all-gather off the critical path, so ..."
_ACTION_SO_EN = pattern_cache.lazy(r"(?P<action>[A-Z][^,;:()]{10,160}?),\s+so\s+(?:that\s+)?(?=[a-z])")


_UPDATES_EN = pattern_cache.lazy(r"\b(?:updates?|changes?|tunes?|improves?|modif(?:y|ies))\s+(?:the\s+)?(?P<setup>[^,.;]{3,60}?)"
                                 r"(?=\s+(?:for|to|so)\b|[,.;]|$)", re.I)


def listed_change(doc: Document, point: int, listed: str) -> str | None:
    """The point "This PR updates the X recipe" and its list of changes ("In figures: BF16 from 532 to 575 TFLOPs ...")
    as one sentence: "This PR raised BF16 from 532 to 575 TFLOPs (...) in the X recipe"; None when the point names no
    change of its own or the list gives no change."""
    if doc.lang == "ar":
        return None
    words, synth = messages(doc.lang)["gist_frames"], messages(doc.lang)["gist_synth"]
    sentence = doc.text[slice(*doc.sentences[point])]
    actor, updated = _ACTOR_EN.search(sentence), _UPDATES_EN.search(sentence)
    prefix = synth["figures"].split("{items}")[0]
    if not actor or not updated or not listed.startswith(prefix) or " from " not in listed:
        return None
    items = listed[len(prefix):]
    less, more = synth["less"].split("{amount}")[1].strip(), synth["more"].split("{amount}")[1].strip()
    verb = words["changed" if less in items and more in items else "cut" if less in items else "raised"]
    said = actor.group(0)
    text = words["change_by"].format(actor=said[0].lower() + said[1:], verb=verb, items=items) \
        + words["in_setup"].format(setup=updated.group("setup").strip())
    return text[:1].upper() + text[1:]


# A data row "Throughput per Device: 8,034 tokens/device/second": a label, then a value that opens with a figure.
_ROW = pattern_cache.lazy(r"^\s*[-*•]?\s*(?P<label>[^\W\d][^:\n]{1,40}?)\s*:\s*(?P<value>[~≈]?\s*[\d٠-٩][^\n]{0,40}?)\s*$")
_LABELLED_LINE = pattern_cache.lazy(r"^\s*[-*•]?\s*[^\W\d][^:\n]{1,40}?\s*:\s*\S")
HEADING_WORDS = 6  # "DDP Mode", "FSDP (8 GPUs)": a short line over a block of rows names what the block measures


def compared_rows(doc: Document) -> tuple[list[int], str] | None:
    """A label whose rows recur under different headings with different values ("Throughput per Device: 8,034 ..." under
    "DDP Mode", "... 1,747 ..." under "FSDP Mode") as one comparison ("Throughput per Device is 8,034 ... in DDP Mode and
    1,747 ... in FSDP Mode") with the sentences it reads; None when no label is compared across headed blocks."""
    lines, offset = [], 0
    for line in doc.text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    rows: dict[str, list[tuple[str, str, str, int]]] = {}
    for n, (start, line) in enumerate(lines):
        row = _ROW.match(line)
        if not row:
            continue
        k = n - 1
        while k >= 0 and _LABELLED_LINE.match(lines[k][1]):
            k -= 1  # the block's other rows ("Distributed Strategy: ddp" too)
        head = lines[k][1].strip().rstrip(":").strip() if k >= 0 else ""
        if not head or len(head.split()) > HEADING_WORDS or head.endswith((".", "?", "؟", "!")):
            continue  # a row with no heading over it compares nothing
        rows.setdefault(row.group("label").strip().lower(), []).append((row.group("label").strip(), row.group("value").strip(), head, start))
    words = messages(doc.lang)["gist_frames"]
    for found in rows.values():
        groups = {head.lower() for _, _, head, _ in found}
        values = {value for _, value, _, _ in found}
        if len(found) < 2 or len(groups) != len(found) or len(values) < 2:
            continue  # one value per heading, and the values differ: else nothing is compared
        label = found[0][0]
        label = " ".join(w.lower() if w[1:].islower() else w for w in label.split())  # "Throughput per Device", not "GPU"
        sources = sorted({i for *_, start in found for i, (a, b) in enumerate(doc.sentences) if a <= start < b})
        if all(_MORE_METRICS.search(value) for _, value, _, _ in found):  # "PPL: 8.8, GPU Mem: 4.7 GB, 12.2 toks."
            first = words["row_first"].format(metrics=_metrics(label, found[0][1]), group=found[0][2])
            rest = [words["row_block"].format(metrics=_metrics(label, value), group=head) for _, value, head, _ in found[1:]]
            return sources, first + words["against"] + words["against"].join(rest)
        items = [words["row_value"].format(value=value, group=head) for _, value, head, _ in found]
        values_text = ", ".join(items[:-1]) + words["and"] + items[-1]
        return sources, words["rows"].format(label=label, values=values_text)
    return None


_MORE_METRICS = pattern_cache.lazy(r",\s*(?:[^\W\d][^:,\n]{0,25}:\s*)?[~≈]?\d")  # a row that goes on with more measures


def _metrics(label: str, value: str) -> str:
    """"PPL" and "8.8, GPU Mem: 4.7 GB, 12.2 toks." as "PPL 8.8, GPU Mem 4.7 GB and 12.2 toks": each measure with its name."""
    parts = [p.strip().rstrip(".;") for p in value.split(",") if p.strip()]
    named = [f"{label} {parts[0]}"] + [re.sub(r"\s*:\s*", " ", p, count=1) for p in parts[1:]]
    return ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]


GIVEN_ROWS = 3  # a question's situation in at most three rows: more is a spec sheet, not a gist


def given_rows(doc: Document) -> tuple[list[int], str] | None:
    """The text's rows with figures ("Step time: 2.4 s", "MFU: 15%") as one list ("step time 2.4 s and MFU 15%"), the
    situation a question post asks about; None when it has none, or more than GIVEN_ROWS (a spec sheet)."""
    found, offset = [], 0
    for line in doc.text.split("\n"):
        row = _ROW.match(line)
        if row:
            found.append((row.group("label").strip(), row.group("value").strip().rstrip(".;"), offset))
        offset += len(line) + 1
    if not found or len(found) > GIVEN_ROWS:
        return None
    words = messages(doc.lang)["gist_frames"]
    items = [words["row_given"].format(label=" ".join(w.lower() if w[1:].islower() else w for w in label.split()), value=value)
             for label, value, _ in found]
    text = items[0] if len(items) == 1 else ", ".join(items[:-1]) + words["and"] + items[-1]
    sources = sorted({i for *_, start in found for i, (a, b) in enumerate(doc.sentences) if a <= start < b})
    return sources, text
