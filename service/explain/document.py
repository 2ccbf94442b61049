"""The document the explainer's stages enrich in turn (terms -> figures -> claims -> checks), spaCy style."""

from dataclasses import dataclass, field

from service.explain import grounding


@dataclass
class Claim:
    """One statement of the text a reader wants explained or checked."""

    quote: str
    start: int
    end: int
    kinds: list[str]  # requirement, cause, comparison, measurement, configuration, computation, question
    frame: str | None = None  # a claim of this field recognised by its terms (data/claim_cues.json "frames")
    negated: bool = False
    figures: list = field(default_factory=list)  # Figure objects inside the claim
    term_ids: list[str] = field(default_factory=list)
    chips: list[dict] = field(default_factory=list)  # catalog chips named in the claim
    models: list[dict] = field(default_factory=list)  # catalog models named in the claim
    plain: str = ""
    calculations: list[int] = field(default_factory=list)  # indices into Document.calculations
    verdict: str = "explained"  # consistent | inconsistent | explained | needs_more
    why: str = ""  # never empty once checked
    confidence: str = "text"  # text | derived | assumed: the weakest source among the inputs of its calculations
    placeholder_why: bool = False  # `why` only says there is nothing to check: the answer's text leaves it out

    def to_dict(self) -> dict:
        """The JSON object of DESIGN.md's `claims` list."""
        return {"quote": self.quote, "plain": self.plain, "kinds": self.kinds, "frame": self.frame,
                "calculation": self.calculations[0] if self.calculations else None,
                "calculations": list(self.calculations), "verdict": self.verdict, "why": self.why,
                "confidence": self.confidence}


@dataclass
class Document:
    """A text being explained, and what each stage found in it."""

    text: str
    lang: str
    previous: "Document | None" = None  # the conversation's earlier turns, for a follow-up
    clutter: list[tuple[int, int]] = field(default_factory=list)
    definitions: dict[str, str] = field(default_factory=dict)
    matches: list = field(default_factory=list)  # glossary matches, one per term
    occurrences: list = field(default_factory=list)  # every occurrence of every term
    terms: list[dict] = field(default_factory=list)
    corrections: list[dict] = field(default_factory=list)
    figures: list = field(default_factory=list)
    mentions: list[grounding.Mention] = field(default_factory=list)  # catalog chips and models, in order
    sentences: list[tuple[int, int]] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    calculations: list[dict] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    # "That is roughly a 33x speedup": the change a pointing opening stands for, where a check resolved it (its start -> the
    # two figures, in the text's order), so the gist can say what "that" is instead of leaning on a sentence it leaves out
    referents: dict[int, tuple[str, str]] = field(default_factory=dict)
    config: dict | None = None  # a training configuration found in the input (service/configs), read apart from the prose

    def chips(self) -> list[dict]:
        """Catalog chips the text names, first mention first, each once."""
        return grounding.unique([m.entry for m in self.mentions if m.kind == "chip"])

    def named_only_generically(self, chip: dict) -> bool:
        """Whether the text names `chip` only as "TPU" or "GPU": the generation is then an assumption to state."""
        mentions = [m for m in self.mentions if m.kind == "chip" and m.entry is chip]
        return bool(mentions) and all(m.generic for m in mentions)

    def models(self) -> list[dict]:
        """Catalog models the text names, first mention first, each once."""
        return grounding.unique([m.entry for m in self.mentions if m.kind == "model"])

    def figure(self, quantity: str):
        """The first figure of `quantity` the text states, or None."""
        return next((f for f in self.figures if f.quantity == quantity), None)
