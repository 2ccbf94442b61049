"""Turns of a thread pasted as one text: a line that opens by thanking for a reply ("Thanks for your reply! In my
experiment, ...") starts another speaker's turn, so a gist does not join two speakers' sentences as one author's."""

import re

from service.explain import pattern_cache, process_cache
from service.explain.document import Document

# "Thanks for your reply!", "Thank you for the quick response.", "شكرا على ردك": a reply to the turn before it
_REPLY_OPENS = pattern_cache.lazy(r"^[ \t>*-]*(?:@?[\w.-]+@?[ \t,:]+)?(?:thanks?(?: you)?(?: so much| a lot)?,? for (?:your|the) (?:\w+ )?(?:reply|response|answer|explanation)"
                                  r"|thanks?(?: you)?,? for (?:summariz\w+|sharing|reporting)\b"  # "yaroslavvb@ Thanks for summarizing ..." (round 104 P09)
                                  r"|(?:شكرا|شكرًا)(?: لك)? (?:على|ل)(?:ردك|الرد|إجابتك)"
                                  # "Are you using two GPUs when ...?" after the author's question (round 97 P04): someone
                                  # answering with a question back; "change looks fine but ..." a reviewer's (round 97 P07)
                                  r"|(?:are|were|did|do|have|had|is|can|could) you\b[^\n?]*\?"
                                  r"|(?:LGTM|(?:the )?changes? looks? (?:fine|good)|looks good to me)\b)", re.I | re.M)


def turn(doc: Document, index: int) -> int:
    """How many reply openings come at or before sentence `index` (0: the first speaker's turn)."""
    start = doc.sentences[index][0]
    return sum(1 for at in _openings(doc.text) if at <= start)


def _openings(text: str) -> tuple[int, ...]:
    """Where the replies of a pasted thread begin; read once per text (the gist asks for every pair of sentences)."""
    return process_cache.CACHE.get("reply_openings", text, lambda: tuple(
        m.start() for m in _REPLY_OPENS.finditer(text) if m.start() > 0 and _line_start(text, m.start())), limit=64)


def other_turn(doc: Document, index: int, first: int) -> bool:
    """Whether sentence `index` belongs to another speaker's turn than sentence `first`."""
    return turn(doc, index) != turn(doc, first)


def _line_start(text: str, at: int) -> bool:
    return at == 0 or text[at - 1] == "\n" or re.fullmatch(r"[ \t>*-]*", text[text.rfind("\n", 0, at) + 1:at]) is not None
