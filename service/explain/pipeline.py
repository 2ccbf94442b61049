"""The explainer's stages run in order on a Document: terms -> figures -> claims -> checks (spaCy style)."""

import re

from service.explain import checks, claims, grounding, pattern_cache, terms
from service.explain.document import Document
from service.explain.figures import read_figures as reader


def read_figures(doc: Document) -> None:
    """Stage 2: every figure the text states (outside page clutter), and the chips and models it names."""
    doc.figures = [_batch_scope(doc.text, _rate_after(doc.text, _named_mfu(doc.text, _thousands_dot(f)))) for f in reader(doc.text)
                   if not terms.inside(doc.clutter, f.start)]
    spans = [(f.start, f.end) for f in doc.figures]
    # "72-GPU" is a figure about a node, not a mention of the generic GPU cluster.
    doc.mentions = [m for m in grounding.mentions(doc.text) if not terms.inside(doc.clutter, m.start)
                    and not (m.generic and terms.inside(spans, m.start))]
    terms.add_notation_terms(doc)


# Words that say a batch is the whole step's, not one device's ("global batch size 512", "GBS", "--global-batch-size").
_GLOBAL_BATCH = pattern_cache.lazy(r"global|total|effective|overall|whole|per (?:step|iteration)|\bgbs\b|\bgb\b|"
                                   r"across (?:all|the)|إجمالي|الكلي|الكلية|العام", re.I)
BATCH_LABEL_REACH = 40  # characters before a figure where its label sits ("global_batch_size=", "a global batch of")


# "49,345 tokens are processed per second", "3,000 tokens each second": a count made a rate by the words after it.
_PER_SECOND_AFTER = pattern_cache.lazy(r"\s*(?:(?:are|is|were|was|get|gets|got|being)\s+)?(?:(?:\w+ed|seen|run)\s+)?"
                                       r"(?:per|each|every|a)\s+(?:second|sec)\b", re.I)
RATES_OF = {"tokens": "tokens_per_s"}


# "18.000 شريحة", "1.500 GPUs": a count of whole things written with a dot between its thousands, as Arabic and many
# European texts write them; a count of chips has no fraction, so "18.000" is eighteen thousand, never eighteen
_THOUSANDS_DOT = pattern_cache.lazy(r"^\s*\d{1,3}(?:\.\d{3})+(?![\d.,])")
WHOLE_COUNTS = ("n_chips", "n_nodes", "chips_per_node")


def _thousands_dot(fig):
    """A count of chips or nodes written "18.000" read as 18,000."""
    written = _THOUSANDS_DOT.match(fig.quote)
    if fig.quantity not in WHOLE_COUNTS or not written:
        return fig
    return fig._replace(value=float(written.group(0).strip().replace(".", "")))


# "MFU (Model FLOP Utilization) was ~18%": the share is the MFU its subject names, not a utilization read off its gloss
_MFU_SUBJECT = pattern_cache.lazy(r"\b(?:MFU|model\s+flops?\s+utili[sz]ation)\b[^.;%\d]{0,48}$", re.I)


def _named_mfu(text: str, fig):
    """A share read as a utilization whose subject is MFU, read as the MFU."""
    if fig.quantity != "utilization" or not _MFU_SUBJECT.search(text, max(0, fig.start - 60), fig.start):
        return fig
    return fig._replace(quantity="mfu")


def _rate_after(text: str, fig):
    """A token count the sentence goes on to give per second is a rate, not a total (a total would be set against
    the time of a whole run, and a step's 170 s called wrong)."""
    rate = RATES_OF.get(fig.quantity)
    if rate is None or not _PER_SECOND_AFTER.match(text, fig.end):
        return fig
    return fig._replace(quantity=rate)


def _batch_scope(text: str, fig):
    """A batch figure whose words do not say it is the whole step's ("bs=2", "batch size 512") is marked so: the answer
    then says "a batch of 2", not "a global batch", which would assert what the text leaves open."""
    if fig.quantity not in ("global_batch_sequences", "global_batch_tokens"):
        return fig
    before = text[max(0, fig.start - BATCH_LABEL_REACH):fig.end]
    if _GLOBAL_BATCH.search(before):
        return fig
    return fig._replace(detail={**(fig.detail or {}), "batch_scope": "unsaid"})


# Full-width punctuation a Chinese or Japanese keyboard types ("W4A8_AWQ？", "quantization，and"): the ASCII mark, one
# character for one so every offset stays the text's, and a question ends on a question mark the reader's rules know
_FULLWIDTH = str.maketrans("？！，：；（）", "?!,:;()")
# A derivation written a step per line ("Time = 70 GB ÷ 3.35 TB/s" / "≈ 0.0209 seconds"): the line break before "≈" or "="
# becomes a space (one character for one), so the expression and its result are one statement to check
_CONTINUED = re.compile(r"\n(?=[ \t]*[≈=][ \t]*\d)")
# "I’m wondering", "We’re in need", "doesn’t": a curly apostrophe inside an English word is the straight one every
# rule reads (one character for one); a quote mark around a word ("the ‘fast’ path") is left as written
_CURLY_APOSTROPHE = re.compile(r"(?<=[A-Za-z])[’‘](?=[A-Za-z])")


def analyse(text: str, lang: str, previous: Document | None = None) -> Document:
    """Run every stage on `text` (a follow-up of `previous` when given) and return the document."""
    doc = Document(text=_CURLY_APOSTROPHE.sub("'", _CONTINUED.sub(" ", text.translate(_FULLWIDTH))), lang=lang, previous=previous)
    for stage in (terms.read_terms, read_figures, claims.find_claims, checks.check_claims):
        stage(doc)
    return doc
