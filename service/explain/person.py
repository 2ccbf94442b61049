"""English grammar for reported speech: the author's first person turned to the third ("I was getting" -> "they were
getting"), and whether a line has a finite verb."""

import re

from service.explain import pattern_cache

# Person: the author's "I"/"we" become "they" (agreement: "I am" -> "they are", "I was" -> "they were").
_PERSON_EN = [(r"\bI(?:'m| am)\b", "they are"), (r"\bI was\b", "they were"), (r"\bI'(?:ve)\b", "they have"),
              (r"\bI'd\b", "they would"), (r"\bI'll\b", "they will"), (r"\bwe're\b", "they are"), (r"\bwe've\b", "they have"),
              (r"\bwe'd\b", "they would"), (r"\bwe'll\b", "they will"), (r"(?<![\w/.-])(?:I|i)(?![\w/.'-])", "they"),
              (r"\bwe\b", "they"), (r"(?<![\w/.-])me(?![\w/.-])", "them"), (r"(?<![\w/.-])(?<!\d )us(?![\w/.-])", "them"),
              (r"\b(?:my|our)\b", "their"), (r"\b(?:mine|ours)\b", "theirs"), (r"\b(?:myself|ourselves)\b", "themselves"),
              # the addressee's ("in your README"): reported, it is no longer "your"; the article keeps the noun definite
              (r"(?<![\w/.-])your own\b", "one's own"), (r"(?<![\w/.-])your(?![\w/.'-])", "the")]
_INDEX_BEFORE = pattern_cache.lazy(r"\b(?!(?:and|but|so|then|when|if|that|because|as|while|since|what|how|why|where|did|do|should|can|"
                                   r"could|would|will|am|now|also)\s+$)[a-z]+\s+$")  # a noun right before a lower-case "i"
_INTENT_NO_SUBJECT = pattern_cache.lazy(r"^(?:will|shall)(?=\s+(?:close|add|fix|update|look|check|try|send|open|merge|push|"
                                        r"report|post|share|investigate|revert|file|run|test)\b)", re.I)
_TITLE_BEFORE = pattern_cache.lazy(r"\b[A-Z][a-z]+\s+$")  # a capitalised word right before a capitalised "Your" or "My" mid-sentence
_YOUR_NOUN = pattern_cache.lazy(r"(?<![\w/.-])[Yy]our\s+([A-Za-z][\w-]*)")
_PERSON_CASE = {"we", "my", "our", "mine", "ours", "myself", "ourselves", "we're", "we've", "we'd", "we'll", "your"}


def third_person(text: str, lang: str) -> str:
    """The sentence with the author's first person turned to the third ("I was getting" -> "they were getting").

    Arabic verbs carry their person in their form; the Arabic sentence keeps it and is quoted as the author's words.
    """
    if lang == "ar":
        return text
    text = re.sub(r"(?<=[A-Za-z])[’‘](?=[A-Za-z])", "'", text)  # "I’m" typed with a curly apostrophe is "I'm", never "they’m"
    text = _YOUR_NOUN.sub(_addressee, text)
    text = _INTENT_NO_SUBJECT.sub(lambda found: "they " + found.group(0).lower(), text)  # "(So) will close this issue": the author's own plan, its "I" left out
    for pattern, replacement in _PERSON_EN:
        flags = re.I if any(word in pattern for word in _PERSON_CASE) else 0

        def put(found, replacement=replacement):
            word = found.group(0)
            if word == "i" and _INDEX_BEFORE.search(found.string, 0, found.start()):
                return word  # "rank i holds expert i": an index, not a lower-case "I"
            if word in ("Your", "My", "Our") and _TITLE_BEFORE.search(found.string, 0, found.start()):
                return word  # "I recommend How To Scale Your Model": a title's words, not the author's or the addressee's
            return replacement[0].upper() + replacement[1:] if word[0].isupper() and not word.startswith("I") and found.start() == 0 \
                else replacement
        text = re.sub(pattern, put, text, flags=flags)
    return text


def _addressee(found: re.Match) -> str:
    """"your test" where the sentence also names the author's test: "the other person's test", so that "the test" is not
    both theirs and the addressee's ("the test we ran ... the variant your test used")."""
    noun = found.group(1)
    rest = found.string[:found.start()] + found.string[found.end():]
    if not re.search(rf"(?<!your )(?<!your\s\s)\b{re.escape(noun)}\b", rest, re.I):  # "your CPU ... your CPU": one CPU, generic
        return found.group(0)
    return ("The" if found.group(0)[0] == "Y" else "the") + f" other person's {noun}"


def lower_first(text: str) -> str:
    """A sentence continued after another's words: its first word in lower case, unless "I", an acronym or a name ("GPUs")."""
    first = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if first != "I" and first[1:] == first[1:].lower() else text


FINITE = pattern_cache.lazy(r"\b(?:is|are|was|were|has|have|do|does|did|can|could|will|would|should|must|[a-z]{2,}(?:es|ed))\b|,\s+(?:we|I|they|you)\s+[a-z]")  # ", we show"


def has_verb(sentence: str) -> bool:
    """Whether an English sentence has a finite verb (a list item such as "Effective MFU closer to ~50%" has none)."""
    if not sentence.isascii():
        return True
    where = _NOUN_WHERE.match(sentence)  # "Creative writing where the draft model can't predict": a noun and where it holds
    if where and not (FINITE.search(where.group("head")) or _COMMON_VERB.search(where.group("head"))):
        return False
    return bool(FINITE.search(sentence) or _COMMON_VERB.search(sentence))


# Words before a noun: a determiner, a quantity or an adjective ("consistent gaps", "the spikes", "two nodes")
_BEFORE_NOUN = re.compile(r"(?:a|an|the|some|many|few|several|two|three|four|no|more|less|large|small|big|huge|high|low|long|short|"
                          r"new|old|same|other|extra|frequent|occasional|\d[\w.%]*|[a-z]+(?:ent|ant|al|ive|ous|ic|ful|able|ible|ary|ory|ar|"
                          r"less|ish|ed|ing))$", re.I)


def clause_follows(text: str) -> bool:
    """Whether what follows "we see"/"I found" is a clause with a verb of its own ("the all-reduce dominates the step"),
    not a noun phrase ("consistent gaps of 4s where the GPUs go unused"): a relative clause's verb and a plural noun
    after an adjective or a determiner do not count."""
    head = re.split(r"\b(?:where|which|who|whose|whom|when|while|that)\b", text, maxsplit=1, flags=re.I)[0]
    words = head.split()
    for n, word in enumerate(words):
        bare = word.strip(",;:()").lower()
        if not bare or not has_verb(bare):
            continue
        if n == 0 or words[n - 1].lower() in _PREPOSITIONS or _BEFORE_NOUN.match(words[n - 1].strip(",;:()")) and not re.fullmatch(r"is|are|was|were|has|have|had|can|could|will|would|should|must|do|does|did", bare):
            continue  # "gaps of ...", "consistent gaps": the noun, not its verb
        return True
    return False


_PREPOSITIONS = frozenset("of in on at for with by from into per over under across between".split())  # "in terms of": a noun after it
_NOUN_WHERE = pattern_cache.lazy(r"^\s*(?P<head>(?:[\w()+.-]+\s+){1,5}?)(?:where|in which)\b")


_COMMON_VERB = pattern_cache.lazy(r"\b(?:get|got|need|use|used|run|ran|take|took|make|made|keep|kept|fit|split|hit|put|set|hope|want|plan|expect|think|"
                                  r"believe|try|know|knew|see|saw|say|said|show|find|found|give|gave|seem|help|allow|let|may|might|"
                                  r"[a-z]{2,}s)\b(?<!\bits)(?<!\bthis)(?<!ss)(?<!us)")  # "less", "across", "status": no verb


# an option's description opening on its verb ("Increases speculation range but risks ..."): no subject "that" can carry
OPTION_VERB_FIRST = (r"(?:Increases|Reduces|Decreases|Improves|Allows|Enables|Specifies|Controls|Determines|Defines|Requires|Lets|"
                      r"Provides|Limits|Raises|Lowers|Keeps|Avoids|Prevents|Trades)\s(?!(?:is|are|was|were|can|will)\b)"
                      r"|(?:Configurable|Maximum|Minimum|Max|Min|Number|Percentage|Fraction|Ratio|Amount|Size)\s+(?:\w+\s+)?(?:of|to)\s"
                      r"(?!.*\b(?:is|are|was|were|can|will|should|must)\b)|Whether\s+to\s")  # "Configurable percentage of ... to reserve"


def describes_option(sentence: str) -> bool:
    """Whether a sentence is an option's description opening on its verb ("Increases speculation range ...")."""
    return re.match(OPTION_VERB_FIRST, sentence.strip()) is not None


# Verbs an instruction opens with ("Combine it with TP"): after "says that" they would read as a broken sentence
# ("Update: ..." is a label, "Reduce Scatter" a collective, "Switch layers" a name: verbs that are also nouns are left out).
# "Set it too low and an overloaded expert drops tokens": an order joined by "and" to what follows is a condition, no advice
CONDITIONAL_ORDER = pattern_cache.lazy(r"^\w+\s+(?:[\w-]+\s+){0,4}?(?:too\s+\w+|higher|lower|larger|smaller|bigger|more|less|fewer)\s+and\s+"
                                       r"(?!(?:then\s+)?(?:set|use|run|keep|make|add|increase|decrease)\b)\w+"
                                       # "Add GPUs and the arithmetic scales linearly" (round 87 P16): what follows if you do
                                       r"|^(?:add|double|triple|halve|scale|push|throw|give|put|grow)\s+(?:[\w-]+\s+){0,6}?and\s+"
                                       r"(?:the|your|you|it|its|their|each|every|this|that|training|throughput|communication)\b"
                                       # "Run four stages with four microbatches and roughly 43% ... is wasted" (round 96 P21)
                                       r"|^(?:run|use|set|take|train|pick|choose)\s+(?:[\w-]+\s+){0,6}?and\s+"
                                       r"(?:(?:roughly|about|around|nearly|almost|only)\s+|~\s*)?(?:\d|you\b|your\b)", re.I)
IMPERATIVE = pattern_cache.lazy(r"^(?:use|keep|set|avoid|try|make sure|consider|put|run|enable|disable|prefer|start|increase|decrease|lower|raise|limit|split|"
                                r"shard|combine|add|remove|install|reduce|tune|choose|replace|adjust|configure|specify|ensure|remember|do not|don't|never|always|"
                                r"refresh|rerun|re-run|update|upgrade|downgrade|verify|compare|measure|profile|pin|bump|drop|skip|stop|prioriti[sz]e|focus|rely|wrap|"
                                r"fuse|allocate|apply|shrink|halve|restart|retry|rebuild|recompile)\b(?!\s+(?:is|are|was|were|has|have|can|will|of)\b|\s*:|[\s_-]*(?:scatter|gather)\b)", re.I)
