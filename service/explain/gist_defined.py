"""What a defining sentence of the other language says a term is, in the answer's language: the glossary's first clause,
said only where the sentence itself says it ("The text explains X: <what>" credits the text with <what>)."""

import re

from service.explain import gist_names, gist_values
from service.explain.definitions import generic_term_ids
from service.explain.document import Document
from service.i18n import arabic

# A sentence opening on a framework, a chip or a model uses it: "The text explains Megatron: <the glossary's
# definition>" was judged a wrong statement each time (rounds 9-10), while a concept it opens on is often its point.
_NAMED_THINGS = frozenset({"framework", "hardware", "model", "organisation", "organization", "software"})


MAX_DEFINITION_WORDS = 30  # a longer first sentence of a definition is a paragraph, not what a gist can carry


def defined(doc: Document, start: int, end: int, everyday: set[str]) -> tuple[str, str]:
    """The definition's first clause and the name of the term a defining sentence opens with; ('', '') when it opens with
    no term of the glossary, with an everyday word or a named product, or the sentence does not say that clause."""
    first = min((o for o in doc.occurrences if start <= o.start < min(end, start + 40)), key=lambda o: o.start, default=None)
    term = next((t for t in doc.terms if first is not None and t["id"] == first.entry["id"]), None)
    if first is not None and not _DEFINED_LEAD.fullmatch(doc.text[start:first.start]):
        return "", ""  # "One possible reason is the number of microbatches ...": a reason, not a definition of them
    if term is None or term["id"] in everyday or term["id"] in generic_term_ids() or not term.get("definition") \
            or term.get("category") in _NAMED_THINGS:
        return "", ""  # an everyday word ("the link above") or a product the text uses ("Megatron ...") is not what it explains
    sentence = re.split(r"(?<=[.!?؟])\s", term["definition"].strip(), maxsplit=1)[0].rstrip(".")
    # what the term is, not what the glossary adds after a semicolon ("; a 'B' in a model's name counts billions"):
    # said as the text's explanation, an added fact is one the text never gave (a round-9 reader)
    sentence = re.split(r"\s*[؛;]\s*", sentence, maxsplit=1)[0]
    # its first clause, a whole fact of its own and the part _backed checks the sentence for: what the glossary adds
    # after it ("each on different chips", "in FP8 or lower") the text need not say
    sentence = re.split(r"\s*[،؛;,]\s*", sentence, maxsplit=1)[0]
    name = gist_names.name_of(first, term, doc.lang)
    if not _backed(first.entry, doc.text[start:end]):
        return "", ""  # "MS-AMP applies low-bit formats ...": what the glossary adds is not what this sentence says
    if not 6 <= len(sentence.split()) <= MAX_DEFINITION_WORDS or not name or not gist_values.readable(sentence, doc.lang):
        return "", ""
    sentence = re.sub(r":\s+", "، " if doc.lang == "ar" else ", ", sentence)  # one colon in the frame: its own
    if doc.lang == "en" and sentence[1:2].islower():
        sentence = sentence[0].lower() + sentence[1:]  # after a colon: "...: every chip keeps a full copy"
    return sentence, name


_FIRST_CLAUSE = re.compile(r"(?<=[.!?؟])\s|\s*[؛;:,،]\s*")  # a definition's core, before what it adds
MIN_BACKING = 0.3  # share of the definition's first clause that the sentence itself says, in its own words


def _backed(entry: dict, sentence: str) -> bool:
    """Whether the sentence says much of what the glossary's first clause of `entry` says (in the sentence's language):
    "the text explains X: <definition>" gives the text the definition, so the text must carry it. Blind readers judged
    it wrong where it did not ("asynchronous checkpointing offers a smarter alternative" given the glossary's CPU copy)."""
    lang = "ar" if arabic.share_of_arabic(sentence) > 0.5 else "en"
    definition = (entry.get("ar") or {}).get("definition") if lang == "ar" else entry.get("definition")
    clause = _FIRST_CLAUSE.split((definition or "").strip(), maxsplit=1)[0]
    wanted, said = _content_words(clause, lang), _content_words(sentence, lang)
    names = str(entry.get("term") or "") + " " + " ".join(entry.get("aliases") or []) \
        + " " + str((entry.get("ar") or {}).get("term") or "") + " " + " ".join(entry.get("ar_aliases") or [])
    wanted -= _content_words(names, lang)  # "GPU memory occupies 13395MB" says the name, not what the memory is
    shared = wanted & said
    return len(shared) >= 2 and len(shared) >= MIN_BACKING * len(wanted)


_FUNCTION_WORDS = frozenset("the a an of in on to for and or by with from into its it is are was be that this which each every "
                            "so as at than more less most one two only their them they not but also can may all any".split())


def _content_words(text: str, lang: str) -> set[str]:
    """Words that carry meaning, reduced to a crude stem (an English plural's s, an Arabic article or joined particle)."""
    words = set()
    for word in re.findall(r"[\w\u0600-\u06FF]+", text.lower()):
        if lang == "ar":
            word = re.sub(r"^(?:[وفبلك]?ال|[وفبل](?=\w{3}))", "", word)
        else:
            word = word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
        if len(word) >= 3 and word not in _FUNCTION_WORDS:
            words.add(word[:6])  # "splits"/"split", "layers"/"layer", "consecutive": six letters are enough to match
    return words


_DEFINED_LEAD = re.compile(r"\s*(?:(?:the|an?|this (?:specifies|sets|controls|is)(?: the| an?)?)\s+)?", re.I)


# "XLA_PYTHON_CLIENT_MEM_FRACTION is a JAX flag that ...": a name in code the sentence opens on and describes
_CODE_SUBJECT = re.compile(r"\s*`?(?P<name>[A-Za-z][\w.]*_[\w.]+|--[\w-]+)`?\s+(?:is|are)\s+(?:a|an|the)\b")


def code_subject(sentence: str) -> list[str]:
    """The name in code a describing sentence opens on, as its one subject ([] when it opens on none): the term named
    inside its description ("a JAX flag") is not what the text explains (round 34: "the text explains JAX")."""
    found = _CODE_SUBJECT.match(sentence)
    return [found.group("name")] if found else []

