"""Stage 3: the statements a reader wants explained or checked, by sentence and clause, from data-driven cue words."""

import re
from functools import cache

from service.explain import grounding, pattern_cache, restate, stated_shares, terms
from service.explain.document import Claim, Document

# Sentence ends: . ! ? ؟ followed by a space or the end (not a decimal point), ; ؛ and line breaks.
# An abbreviation's stop ("i.e.", "e.g.", "vs.", "approx.", "etc." before a lower-case word) ends no sentence.
# A bullet inside a line ("why it matters: • faster math • accuracy?") starts an item of a list pasted on one line.
_BOUNDARY = pattern_cache.lazy(r"(?<![\s(]i\.e\.)(?<![\s(]e\.g\.)(?<!\svs\.)(?<!approx\.)(?<![\s(][Nn]o\.(?=\s\d))(?<!\setc\.(?=\s[a-z]))(?<!\bTL\.)(?<=[.!?؟])\s+|(?<!\bTL)(?<!\btl)[;؛]\s*|\n+|\s*•\s*"
                               r"|(?<=[.!?]\))\s+(?=[A-Z])"  # "(One caveat: ... a bit.) Below are ...": an aside in brackets ends its sentence
                               # "... NVSwitch node.Using vLLM ...", "... the program.I find ...", "is this normal?The ...": a full
                               # stop or a question mark typed with no space, before a word that opens sentences (never
                               # "nn.Module" or "torch.Tensor", a name in code)
                               r"|(?<=[a-z]{3}[.?])(?=(?:Using|The|This|These|We|Our|In|It|For|With|However|They|When|If|As|By|I|But|And|So|My|Also|Is|Are|Why|How|What)\s)"
                               # "Cores: 64 Could this be the root cause?": a question run onto a pasted spec line
                               r"|(?<=\d)\s+(?=(?:Could|Can|Is|Are|Does|Do|Why|How|What|Should|Would|Will)\s+(?:this|it|that|the|we|I|you|there|someone|anyone)\b)"
                               # "... sometimes 1 GPU outperforms 4 After settling on a model, ...": a title run into the text
                               r"|(?<=[a-z0-9])\s+(?=(?:After|However|Meanwhile|Therefore|Spoiler|Update|Edit)(?:[,:]| (?![A-Z])))"
                               # "That's a 2x slowdown 😢 Would you have any idea why?" (round 101 P09): an emoji ends a sentence
                               r"|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+(?=[A-Z])")
# A line broken in the middle of a sentence is one sentence: text pasted from mail or a terminal is often
# hard-wrapped. A lower-case word or a comma, then on the next line a lower-case word or a number that is no list
# marker ("against\n19.3951%", not "\n1. "); or, on a line long enough to be wrapped prose rather than a log or
# config line, a number then a lower-case word ("at 5.3984%\ndrops").
_HARD_WRAP = pattern_cache.lazy(r"(?<=[a-z,])[ \t]*\n(?=[ \t]*(?:[a-z]|\d(?!\d*[.)]\s)|\((?![a-z\d]{1,2}\))[A-Za-z]))|(?<=[\d%])[ \t]*\n(?=[ \t]*[a-z])|(?<=\s[A-Z])[ \t]*\n(?=[ \t]*[a-z])"
                                r"|(?<=[^.!?:;\s])[ \t]*\n(?=[ \t]*(?:which|whereas|because|due to)\s)")
# (a line opening on "which" or "because" goes on from the line before: "... reserved at inference: 93.2 GB" / "which
# exceeds 80 GB limit due to memory fragmentation" is one sentence; apart, "which" was given to the line above it)
_WRAPPED_LINE = 50  # characters of a line that a number ends and a wrap continues
_ARABIC = pattern_cache.lazy(r"[\u0600-\u06FF]")
_ACTION_VERB = pattern_cache.lazy(r"\b(?:cut|reduce[sd]?|improve[sd]?)\b")

# Figures whose quantity is a measured result, and those that describe a set-up.
MEASURED = {"mfu", "hfu", "tokens_per_s", "tokens_per_s_per_chip", "sequences_per_s", "step_time_s", "time_s",
            "chip_hours", "chip_days", "bubble_fraction", "bus_bandwidth_bytes_per_s", "algbw_bytes_per_s",
            "total_flops", "bytes", "activation_bytes", "memory_fraction", "flop_per_s", "flop_per_s_per_chip",
            "speedup", "percent_change", "utilization", "latency_s", "words_per_s"}
LAYOUT = {"tp_degree", "pp_degree", "dp_degree", "ep_degree", "cp_degree", "virtual_stages", "n_chips", "n_nodes",
          "global_batch_sequences", "global_batch_tokens", "micro_batch", "microbatches", "seq_len", "zero_stage"}
# link rates are specs as often as measurements: a sentence with one is a claim only when its author says they measured it
_RATES_MEASURED = {"bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s", "busbw_bytes_per_s"}
# Kinds in the order a reader cares about them; a claim lists every kind that fits.
KIND_ORDER = ("requirement", "cause", "computation", "comparison", "measurement", "configuration", "question")


@cache
def _patterns() -> dict[str, re.Pattern]:
    """Each cue of data/claim_cues.json, both languages joined (Arabic posts quote English acronyms and back)."""
    data = terms.cues()
    joined: dict[str, list[str]] = {}
    for lang in ("en", "ar"):
        section = data[lang]
        # An Arabic cue starts a word (after an optional attached particle): "لا" is not the start of "الاختناقات".
        wrap = (lambda p: rf"(?<![\u0621-\u064A])[وفبلك]?(?:{p})") if lang == "ar" else (lambda p: p)
        for name, pattern in section["kinds"].items():
            joined.setdefault(name, []).append(pattern if name == "question" else wrap(pattern))
        for name in ("negation", "condition", "dp_bound_words", "compute_bound_words", "memory_bound_words", "point", "analogy", "counterfactual", "reported", "composition"):
            joined.setdefault(name, []).append(wrap(section[name]))
    return {name: pattern_cache.lazy("|".join(f"(?:{p})" for p in parts), re.I) for name, parts in joined.items()}


def cue(name: str, text: str) -> bool:
    """Whether the cue list `name` of data/claim_cues.json occurs in `text`."""
    pattern = _patterns().get(name)
    return bool(pattern and pattern.search(text))


# The determiner "no" and words that make a problem negligible ("minimal degradation"): not a verb's negation.
_NO_BEFORE = re.compile(r"(?:\b(?:no|none of|nor|zero|minimal|little|negligible|minor|slight|without)|(?<![\u0621-\u064A])(?:لا|لم|لن|ليس|دون|بدون|عدم))\s+(?:\S+\s+)?$", re.I)


def denied_at(sentence: str, start: int, end: int) -> bool:
    """Whether a negation governs sentence[start:end]: data/claim_cues.json's negations, and the determiner "no"
    ("we see no OOM", "لا يوجد نفاد للذاكرة") or a minimiser ("minimal degradation") that they leave out."""
    return negated_at(sentence, start, end) or bool(_NO_BEFORE.search(sentence[max(0, start - 30):start]))


def asserted(sentence: str) -> bool:
    """Whether a sentence states what it says as found: no condition, expectation or counterfactual ("if you run out
    of memory", "we expect MFU to increase", "the 3x we could not obtain"), which a frame would state as found."""
    return not any(cue(name, sentence) for name in ("hypothetical", "counterfactual", "expectation"))


def cue_spans(name: str, text: str) -> list[tuple[int, int]]:
    """Where the cue list `name` of data/claim_cues.json occurs in `text`."""
    pattern = _patterns().get(name)
    return [m.span() for m in pattern.finditer(text)] if pattern else []


def sentences(text: str, clutter: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(start, end) of each sentence or clause outside the page clutter, trimmed of spaces and bullets."""
    spans, start = [], 0
    unwrapped = _HARD_WRAP.sub(lambda m: " " * len(m.group(0)) if _wrapped(text, m) else m.group(0), text)  # same length: offsets stay the text's
    for match in _BOUNDARY.finditer(unwrapped):
        if _inside_brackets(unwrapped, start, match.start()):
            continue  # "Vocab size is 32777 (maybe too small? Maybe because ...)": one sentence, its aside asks
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    spans = [piece for a, b in spans for piece in _inline_items(text, a, b)]
    spans = [piece for a, b in spans for piece in _glued_heading(text, a, b)]
    spans = [piece for a, b in spans for piece in _label_run(text, a, b)]
    spans = [piece for a, b in spans for piece in _spliced_question(text, a, b)]
    out = []
    for a, b in spans:
        while a < b and (text[a].isspace() or text[a] in "•*-–·>"):
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        marker = _NEXT_ITEM_MARKER.search(text, a, b)  # "... (needed for DTensor) b. modify the ...": b. opens the next item
        if marker and marker.end() == b and marker.start() > a and re.match(r"\s*[a-z]", text[b:]):
            b = marker.start()
        if b > a and not terms.inside(clutter, a):
            out.append((a, b))
    return out


_NEXT_ITEM_MARKER = pattern_cache.lazy(r"(?<=[\s):])\s*[a-h]\.")  # an inline list's letter (round 95 P20, a PR's "a. ... b. ...")


# "Actually I can achieve 500 TPS on single H200 GPU, Is there a paper ...?": a statement and a question run together by
# a comma; read as one question, the statement became what is asked ("They ask whether they can achieve 500 TPS")
_SPLICED_QUESTION = pattern_cache.lazy(r",\s+(?=(?:Is|Are|Do|Does|Did|Can|Could|Should|Would|Will|What|Why|How|Where|Which|Who|When)\s+[a-z])")


def _spliced_question(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """A question that a comma joins to the statement before it, split from that statement."""
    piece = text[a:b].rstrip()
    found = _SPLICED_QUESTION.search(piece) if piece.endswith("?") else None
    if not found or "?" in piece[:found.start()] or len(piece[:found.start()].split()) < 4:
        return [(a, b)]
    return [(a, a + found.start() + 1), (a + found.end(), b)]


def _glued_heading(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """A heading a page ran into the sentence before it ("... not compute Math for 70B model:") split off, so the
    sentence is restated without it (data/claim_cues.json en.glued_heading)."""
    piece = text[a:b].rstrip()
    if not piece.endswith(":"):
        return [(a, b)]
    words = terms.cues()["en"]["glued_heading"]
    found = pattern_cache.lazy(rf"(?<=[a-z]) (?=(?:{words})\b[^.,;:!?]{{0,60}}:$)").search(piece)
    if not found or len(piece[found.end():].split()) > 6 or len(piece[:found.start()].split()) < 4 \
            or _BEFORE_NAME.search(piece[:found.start()]):
        return [(a, b)]
    return [(a, a + found.start()), (a + found.end(), b)]


# "... at the same time Request prompt length: 2,000 tokens Max new tokens: 128 GPU: 1x A6000": a run of labelled values
# whose line breaks were lost; each label opens its own piece where a sentence holds two or more of them
# a label is one word ("A100:", "GPU:") or up to four words with no figure ("Max new tokens:", not "A6000 48GB Model:")
_RUN_LABEL = pattern_cache.lazy(r"(?<=[\w%)])\s+(?=(?:[A-Z][\w.-]*|[A-Z][A-Za-z./-]*(?:\s+[A-Za-z./-]+){1,3}):\s+\S)")


def _label_run(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """A sentence that runs labelled values together cut before each label (two labels or more), and a run of labels
    cut from the sentence that follows them."""
    cuts: list[int] = []
    for m in _RUN_LABEL.finditer(text[a:b]):
        at = a + m.end()
        unit = _UNIT_FIRST.match(text, at)  # "= 7.2e23 FLOPs Hardware: ...": the unit ends the value before the label
        at = unit.end() if unit and re.search(r"\d\s*$", text[a:a + m.start() + 1]) else at
        named = _NAMED_LETTER.search(text, a, at) if _SHORT_LABEL.match(text, at) else None
        at = named.start() if named else at  # "config A: 363ms, config B: 173ms": the label is "config A", not "A"
        before = text[cuts[-1] if cuts else a:at]
        if ":" in before or not cuts and len(before.split()) >= 4:  # "GPU Topo:", "Strategy A on 2 nodes:": one label each
            cuts.append(at)
    edges = [a] + (cuts if len(cuts) >= 2 else []) + [b]
    out = []
    for lo, hi in zip(edges, edges[1:]):
        labels = _LABELS_BEFORE.match(text, lo, hi)  # "GPU Topo: nccl-tests command: As the result shows, ..."
        out += [(lo, labels.end()), (labels.end(), hi)] if labels else [(lo, hi)]
    return [(lo, hi) for lo, hi in out if text[lo:hi].strip()]


_SHORT_LABEL = pattern_cache.lazy(r"[A-Z]\d?:")  # a one-letter name ("A:", "B2:") names a case of the word before it
_NAMED_LETTER = pattern_cache.lazy(r"\b[a-z]{3,}\s+$")
_UNIT_FIRST = pattern_cache.lazy(r"(?:[TPGMK]?FLOP[Ss]?|[KMGT]i?B|tokens?|samples?|hours?|ms|sec|seconds|[KMGT]bps|[GT]B/s|W|kW|MW)\s+(?=[A-Z])")
_LABELS_BEFORE = pattern_cache.lazy(r"(?:[^:.!?\n]{1,30}:\s+){2,3}(?=[A-Z][a-z]+\b(?:\s+\S+){5,})")


_BEFORE_NAME = pattern_cache.lazy(r"\b(?:the|a|an|of|for|with|on|in|to|and|by|from|see|its|their|our|my)$", re.I)  # a name, not a heading


_INLINE_DASH = pattern_cache.lazy(r"\s-\s(?=\S)")
INLINE_ITEMS = 3  # dashes between spaces in one line: fewer are asides ("the pipe is full - neither holds"), more a list


def _inline_items(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """A list run into one line ("... for Inference case - to reduce bubbles, ... - harder to ...") as its items."""
    line_start, line_end = text.rfind("\n", 0, a) + 1, (text.find("\n", b) + 1 or len(text) + 1) - 1

    def marks(lo: int, hi: int) -> list[re.Match]:  # "(D - 1) / D" and "1280 - 64 * 16" are a formula's minus, not an item's mark
        return [m for m in _INLINE_DASH.finditer(text, lo, hi) if text.count("(", lo, m.start()) <= text.count(")", lo, m.start())
                and not (text[m.start() - 1:m.start()].isdigit() and text[m.end():m.end() + 1].isdigit())]

    dashes = [m for m in marks(line_start, line_end) if a <= m.start() < b]
    if len(marks(line_start, line_end)) < INLINE_ITEMS or not dashes:
        return [(a, b)]
    cuts = [a] + [edge for m in dashes for edge in (m.start(), m.end())] + [b]
    return list(zip(cuts[::2], cuts[1::2]))


def _wrapped(text: str, match: re.Match) -> bool:
    """Whether a line break the wrap pattern found continues its sentence: by a number, only a long line of prose
    (a table row "Eager | Compiled" over "12.0s | 3.0s" is no wrapped sentence)."""
    before, after = text[match.start() - 1], text[match.end():match.end() + 8].lstrip(" \t")[:1]
    line = text[text.rfind("\n", 0, match.start()) + 1:match.start()]
    if before.islower() and after.isalpha() and _UNBULLETED_LIST.match(text, match.end()) and not _JOINING_WORD.search(line):
        return False  # "add an env variable to set network throughput" / "find a better way to ...": a list's lines
        # whose bullets were dropped, each an order of its own (round 87 P10 ran three items into one "advice")
    if before.islower() and after.isalpha() or before == "," or _CONTINUES.match(text, match.end()):
        return True  # a capital before the break ("pads every expert to one M" / "tile, so ...") needs a long line
    end = text.find("\n", match.end())
    words = _PROSE_WORD.findall(text[match.end():end if end >= 0 else len(text)])
    return len(line) >= _WRAPPED_LINE and not re.search(r"[|\t]", line) and len(words) >= 3  # "8B 12K 15K 20%" is a row


# a line that opens with an order of its own ("find a better way", "declare compute and network throughput"), under a
# line that does not end on a word that needs more ("... to", "... the")
_UNBULLETED_LIST = pattern_cache.lazy(r"[ \t]*(?:add|find|declare|use|set|make|remove|fix|support|allow|update|move|check|warn|log|document)\s+(?!(?:of|to|and|or|in|on)\b)", re.I)
_JOINING_WORD = pattern_cache.lazy(r"\b(?:to|the|a|an|of|and|or|in|on|for|with|by|as|that|is|are|be|can|will|would|should|from|then|also|just|"
                                   r"must|not|we|you|i|they|please|could|may|might|did|does|do|and\s+then)\s*$", re.I)
_CONTINUES = pattern_cache.lazy(r"[ \t]*(?:which|whereas|because|due to)\s")
_PROSE_WORD = pattern_cache.lazy(r"(?<![\w.])[A-Za-z]{2,}(?![\w.])")


_ASIDE = 160  # characters an aside in brackets may run on after a question or full stop inside it


def _inside_brackets(text: str, start: int, at: int) -> bool:
    """Whether offset `at` falls inside a bracket opened in this sentence and closed further on the same line."""
    opened = text.count("(", start, at) - text.count(")", start, at)
    if opened <= 0:
        return False
    line_end = text.find("\n", at)
    rest = text[at:min(line_end if line_end >= 0 else len(text), at + _ASIDE)]
    return ")" in rest


def _kinds(sentence: str, figures: list) -> list[str]:
    kinds = [name for name in ("requirement", "cause", "comparison", "measurement", "question") if cue(name, sentence)]
    quantities = {f.quantity for f in figures}
    if "expression" in quantities:
        kinds.append("computation")
    if any(f.role in ("before", "after") for f in figures) and "comparison" not in kinds:
        kinds.append("comparison")
    if quantities & MEASURED and "measurement" not in kinds:
        kinds.append("measurement")
    if len(quantities & LAYOUT) >= 2:
        kinds.append("configuration")
    if "comparison" in kinds and not figures and not cue("comparison", _ACTION_VERB.sub("", sentence)):
        kinds.remove("comparison")  # "cut"/"reduce" without a number is an action, not a comparison
    return [k for k in KIND_ORDER if k in kinds]


def _frame(term_ids: set[str], sentence: str, spots: list | None = None) -> str | None:
    """The first frame of data/claim_cues.json whose terms and cues the sentence has, with the sentence's polarity.

    `spots` are the sentence's term occurrences as (term id, start, end) inside the sentence.
    """
    for frame in terms.cues()["frames"]:
        if not set(frame["terms"]) <= term_ids:
            continue
        needs = frame["needs_any"]
        near = frame.get("cue_near")  # "harder to use PP, since we need to finish ...": the need is not PP's
        if near and not any(_governs(sentence, a, t_a, t_b, near) for n in needs if n.startswith("@")
                            for a, _ in cue_spans(n[1:], sentence) for t_id, t_a, t_b in (spots or []) if t_id in frame["terms"]):
            continue
        if not needs or any(cue(n[1:], sentence) if n.startswith("@") else n in term_ids for n in needs):
            if _polarity_holds(frame.get("polarity") or {}, sentence, spots or []):
                return frame["id"]
    return None


def _governs(sentence: str, cue_at: int, start: int, end: int, near: int) -> bool:
    """Whether a cue at `cue_at` is said of the term at start:end: shortly before it ("you need PP"), or right after it
    in the same clause ("PP is required"), never across a comma ("PP, since we need ...")."""
    if cue_at < start:
        return start - cue_at <= near
    between = sentence[end:cue_at]
    if _ACTIVE_NEED.match(sentence, cue_at):
        return False  # "PP requires larger batch size": the term needs something; it is not what is needed
    return len(between) <= near // 2 and not re.search(r"[,;:،؛]", between)


# A need said by an active verb after the term makes the term its subject ("PP requires ...", «يتطلب PP ...» aside)
_ACTIVE_NEED = pattern_cache.lazy(r"(?:requires?|needs|demands?|يتطلب|تتطلب|يحتاج|تحتاج)\b", re.I)


_WORD = pattern_cache.lazy(r"\S+")
_GOVERNED = pattern_cache.lazy(r"with|under|alongside|via|across|beside|plus|مع")


@cache
def _negation_after() -> re.Pattern:
    return pattern_cache.lazy("|".join(f"(?:{terms.cues()[lang]['negation_after']})" for lang in ("en", "ar")), re.I)


def negated_at(sentence: str, start: int, end: int) -> bool:
    """Whether a negation governs the words sentence[start:end]: among the four words before, or "is not" just after."""
    words = _WORD.findall(sentence[:start])[-4:]
    if words and _GOVERNED.fullmatch(words[-1].lower()):
        # "the aux loss does not work well with PP": the negation governs "work well", PP is its company (round 48's
        # wrong gist "trains well without PP"); "no need for PP" still negates PP
        return bool(_negation_after().search(sentence[end:end + 40]))
    return cue("negation", " ".join(words)) or bool(_negation_after().search(sentence[end:end + 40]))


# "It does not yet correctly support pipelining": what a program can do yet, not a run that trains without PP (round 92
# P13-ar's `wrong` gist «يُدرَّب نموذج كبير دون توازي خطوط الأنابيب»)
_CAPABILITY = pattern_cache.lazy(r"\b(?:support|supports|supported|implement|implements|implemented|handle|handles|work\s+with)\s+(?:\w+\s+)?$|تدعم\s+$|يدعم\s+$", re.I)


def _polarity_holds(polarity: dict, sentence: str, spots: list) -> bool:
    """Whether the sentence says what the frame would say: negated or affirmed term, conditional or not, no analogy."""
    if cue("analogy", sentence) or cue("reported", sentence) or (polarity.get("negated") and cue("counterfactual", sentence)):
        return False
    for key in ("negated", "affirmed"):
        term = polarity.get(key)
        if not term:
            continue
        # "_num_layers is never divided by pp_size": a setting's name in code is not the practice the frame speaks of
        found = [negated_at(sentence, a, b) and not (key == "negated" and _CAPABILITY.search(sentence[max(0, a - 40):a]))
                 for term_id, a, b in spots if term_id == term and "_" not in sentence[a:b]]
        if key == "negated" and not any(found):
            return False
        if key == "affirmed" and any(found):
            return False
    if "conditional" in polarity and cue("condition", sentence) != polarity["conditional"]:
        return False
    return True


def find_claims(doc: Document) -> None:
    """Fill doc.sentences and doc.claims; each claim is restated plainly in the output language."""
    text = doc.text
    doc.sentences = sentences(text, doc.clutter)
    for start, end in doc.sentences:
        sentence = text[start:end]
        figures = [f for f in doc.figures if start <= f.start < end]
        inside = [m for m in doc.occurrences if start <= m.start < end]
        term_ids = {m.entry["id"] for m in inside}
        kinds = _kinds(sentence, figures)
        machine = sum(min(b, end) - max(a, start) for a, b in restate.protected_spans(doc) if a < end and start < b)
        # A config line or a command sets options; it states no claim a frame could restate ("# never recommended").
        frame = None if machine > 0.5 * (end - start) else \
            _frame(term_ids, sentence, [(m.entry["id"], m.start - start, m.end - start) for m in inside])
        if frame:
            frame_kind = next(f["kind"] for f in terms.cues()["frames"] if f["id"] == frame)
            kinds = [k for k in KIND_ORDER if k in {*kinds, frame_kind}]
        if not _is_claim(kinds, frame, figures, term_ids, sentence):
            continue
        doc.claims.append(_claim(doc, start, end, kinds, frame, figures, term_ids))
    for claim in doc.claims:
        claim.plain = restate.claim(doc, claim)


def _claim(doc: Document, start: int, end: int, kinds: list[str], frame, figures: list, term_ids: set[str]) -> Claim:
    named = [m for m in doc.mentions if start <= m.start < end]
    return Claim(quote=doc.text[start:end], start=start, end=end, kinds=kinds, frame=frame,
                 negated=cue("negation", doc.text[start:end]), figures=figures, term_ids=sorted(term_ids),
                 chips=grounding.unique([m.entry for m in named if m.kind == "chip"]),
                 models=grounding.unique([m.entry for m in named if m.kind == "model"]))


def add_measurement(doc: Document, start: int, end: int) -> Claim:
    """A sentence the claims stage passed over made a claim of its own, in text order: a later stage found a figure
    in it that the text's other figures check ("This form factor provides 14.6 PFLOPs")."""
    claim = _claim(doc, start, end, ["measurement"], None, [f for f in doc.figures if start <= f.start < end],
                   {m.entry["id"] for m in doc.occurrences if start <= m.start < end})
    claim.plain = restate.claim(doc, claim)
    doc.claims.append(claim)
    doc.claims.sort(key=lambda c: c.start)
    return claim


_WRITTEN_SUM = re.compile(r"\d(?:\.\d+)?\s*(?:[+*×/]|\s-\s)\s*\d[\d.]*(?:\s*(?:[+*×/]|\s-\s)\s*\d[\d.]*)*\s*=\s*\d")


_CHIP_TERMS = frozenset({"nvidia-h100", "nvidia-h200", "nvidia-h800", "nvidia-a100", "nvidia-b200", "gpu-generations", "amd-mi300x"})


def _is_claim(kinds: list[str], frame, figures: list, term_ids: set[str], sentence: str) -> bool:
    """A sentence is a claim when it states a figure of this field, fits a frame, or argues with its terms."""
    if frame:
        return True
    if len(sentence.split()) < 3 or sentence.rstrip().endswith(":"):
        return False  # headings and labels ("Key insight:") announce, they do not claim
    if any(f.quantity in MEASURED | LAYOUT | {"expression", "params", "tokens", "active_params", "weights_bytes"} for f in figures):
        return True
    if sum(f.quantity == "percent" for f in figures) >= 2 and cue("composition", sentence):
        return True  # "consists of 87% code and 13% natural language": shares of a whole, which add up or do not
    if _WRITTEN_SUM.search(sentence):
        return True  # "2 + 4 + 4 + 8 = 18.": the author's own arithmetic, bare numbers or not, is there to be checked
    if sum(f.quantity == "cost_usd" for f in figures) >= 2:
        return True  # "for a $10M run, that is $500K-1.5M wasted": a part of a cost, which a share may give
    if any(f.quantity == "cost_usd" for f in figures) and cue("per_unit", sentence):
        return True  # "each gigawatt needs $50 billion": a price per unit, which the units the text states multiply
    if any(f.quantity in _RATES_MEASURED for f in figures) and cue("measured_here", sentence):
        return True  # "we get around 25 GB/s": a rate the author measured, which a later sentence may set against another
    if sum(f.quantity == "bandwidth_bytes_per_s" for f in figures) >= 2:
        return True  # a link speed restated in other units ("400 Gbps (50 GB/s)") is a conversion to check
    if any(f.quantity == "pin_rate_bytes_per_s" for f in figures) and any("bandwidth" in f.quantity for f in figures):
        return True  # a memory's pin speed beside its bandwidth: pin speed x interface width is a check to make
    if any(f.quantity == "peak_flop_per_s" for f in figures) and term_ids & _CHIP_TERMS:
        return True  # "(3,958 TFLOPS on Hopper)", "H100's 989 TFLOPS": a chip's peak, which its datasheet checks (dense or sparse)
    if sum(f.quantity in ("peak_flop_per_s", "peak_flop_per_s_total") for f in figures) >= 2:
        return True  # two peaks side by side (sparse and dense, or the one an MFU was based on) are a check to make
    sizes = [f for f in figures if f.quantity in ("bytes", "hbm_bytes", "memory_bytes", "memory_bytes_per_chip")]
    if any(f.quantity == "ratio" for f in figures) and 1 <= len(sizes) <= 2:
        return True  # a factor stated for a size ('256 GB, 1.8x the 192 GB', '1.8x the MI300X's') is a check to make
    if any(f.quantity.startswith("n_") for f in figures) and any("bandwidth" in f.quantity for f in figures):
        return True  # "a GPU with 18 ports translates to 1.8 TB/s": a count of links or chips with their bandwidth to multiply
    if any(f.quantity.startswith("n_") for f in figures) and any(f.quantity in ("percent", "fraction") for f in figures):
        return True  # a count with its share ('148 interruptions, 30.1 percent of all'): a share of a whole to check
    if any("bandwidth" in f.quantity for f in figures) and any(f.quantity in ("percent", "fraction", "hfu") for f in figures):
        return True  # "2.2 TB/s, 68% of the theoretical memory bandwidth": a rate with its share of a peak to check
    if stated_shares.states_share(sentence):
        return True  # a share of a whole it states ('148 of the 419 (30.1%)'), or a figure restated in scale words, is a check to make
    return bool(term_ids) and bool({"requirement", "cause", "comparison"} & set(kinds))


def is_arabic(text: str) -> bool:
    """Whether most letters of `text` are Arabic."""
    arabic = len(_ARABIC.findall(text))
    latin = sum(c.isascii() and c.isalpha() for c in text)
    return arabic > latin


_DATED = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(?::\d{2})?")  # a log line's time stamp is no figure
_NUMBER_TOKEN = re.compile(r"(?<![\w.])\d[\d.,]*[a-zA-Z%]{0,2}(?![\w.])")


def table_line(sentence: str) -> bool:
    """Whether a "sentence" is a table run into one line ("bs inp_len out_len ... 1 2048 512 11.20s 228.571 ..."): eight
    numbers or more, one word in four or more a number; it states rows, not a point or a reason."""
    numbers = _NUMBER_TOKEN.findall(_DATED.sub(" ", sentence))
    return len(numbers) >= 8 and len(numbers) * 4 >= len(sentence.split()) and not first_person_view(sentence)


# "I expected 2048 will batch only 2 ...", "we would expect 2739 + 2739 but instead we see 11190": the author's view of
# the figures, however many the line gives; a table has no "I" or "we" who expects or sees
_FIRST_PERSON_VIEW = re.compile(r"\b(?:I|we)(?:'d|’d)?\s+(?:\w+\s+){0,2}?(?:expect\w*|see|saw|observe[sd]?|found|think|thought|"
                                r"believe[sd]?|suspect(?:ed)?|measured|got|get)\b")


def first_person_view(sentence: str) -> bool:
    """Whether a line says what its author expects, sees or finds in the figures it gives."""
    return bool(_FIRST_PERSON_VIEW.search(sentence))

