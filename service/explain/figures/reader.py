"""The state of one read of a text, and the notations that claim their span before the generic rules (the order lives here)."""

import bisect
import math
import re
from service.explain.figures.record import _DIGITS, _Fig
from service.explain.figures.words import _ABBR, _ABBR_DETAIL, _APPROX_AFTER, _APPROX_BEFORE, _AR_DUAL, _AR_DUALS, _AR_DUAL_COUNT, _AR_DUAL_COUNTS, _BOUNDARY, _CHIP_AFTER, _CHUNK, _CLUTTER_LINE, _COMPACT, _CUE_AFTER, _CUE_BEFORE, _DIGIT_TOKEN, _EXPR, _EXPR_NEEDS, _HAS_AR, _HAS_AR_DIGIT, _HAS_DIGIT, _HAS_EXPR, _HAS_MARKUP, _I, _KEY_TABLE, _LETTERS, _Table, _LINK_CHUNK, _LIST_MARK, _MODEL, _MOE_NAME, _NAMES_DIGIT, _NAMES_WORD, _NOUNS, _PER_CHIP, _PIPE_CONTEXT, _PIPE_LETTER, _PIPE_LETTERS, _GEMM_SHAPE, _PREFIX_SCALE, _PRODUCT, _SEQ_K, _SIGN_ONLY, _SYMBOL, _THRESHOLD, _Tok, _UNIT_LABEL, _WINDOW_AFTER, _WINDOW_BEFORE, _clean_markup, _symbol_quantity, _tokens
from service.explain.figures.values import _balanced, _chip_id, _evaluate, _model_id, _number, _operand_roles
from service.explain.figures.units import _Units
from service.explain.figures.relations import _Relations
from service.explain.figures.tables import _Tables

_LEADS_TO = re.compile(r"(?:[ \t]+(?:size|length|len|window|count|degree|rate|dimension))?(?:\s*[:=]\s*|\s+(?:of|is|was|are|were|set to|equals?|to|at|around|about|roughly|~)?\s*|\s*\(\s*)(?:~\s*)?")
# another "label: value" field on the line: a training log, whose rates are measured, not peaks
_LOG_FIELD = re.compile(r"(?:^|\s{2}|[|,]\s*)[A-Za-z_/]+\s*:\s*~?\d|[^\n]*?(?:\s{2,}|[|,]\s*)[A-Za-z_/]+\s*[:=]\s*~?\d")

# a router's k (Switch Transformer's k=1, "top-k") in a text about experts
_EXPERT_CONTEXT = re.compile(r"\bexperts?\b|\bMoE\b|mixture[- ]of[- ]experts|\brout(?:er|ing)\b|خبير|خبراء|الخبراء|توجيه|الموجه", re.I)
_TOP_K_LETTER = re.compile(r"(?<![\w.\-])k\s*=\s*(?P<num>\d{1,2})(?![\w.])")
# memory limits a batch per device: "allows bs=16", "bs=8 fits", "OOM at bs=4"
_FITS = re.compile(r"\b(?:allow(?:s|ed|ing)?|fits?|fitting|OOMs?|out of memory|runs? out of memory)\b", re.I)
_MEMORY_SHARE = re.compile(r"mem(?:ory)?\s*:\s*[\d.]+\s*[GM]i?B\s*\(\s*[\d.]+%", re.I)  # one device's memory, with its share of HBM


_DOTTED_KEY = re.compile(r"(?<=[A-Za-z_])\.(?=[A-Za-z_]+\s*[=:])")  # "model.num_moe_experts=6": the dot before the key
# a table's header row: three words or more, no digit, none of prose's little words ("the batch size was" wraps a sentence)
_HEADER_LINE = re.compile(r"(?![^\n]*\b(?:the|an?|of|is|was|are|were|to|at|by|with|for|and|in|on|we|our|it|this|that|has|have)\b)"
                          r"[ \t]*[A-Za-z][\w/()%.-]*(?:[ \t|]+[A-Za-z][\w/()%.-]*){2,}[ \t|]*", re.I)
_JSON_NEXT_KEY = re.compile(r"[,{][ \t]*\"([A-Za-z_])(?=[\w.-]*\"\s*:)")  # ',"ttft_avg_ms":': a key of a JSON object written without spaces


# A setting written inline as key=value ("steps=60000", "GPU=64"); only with "=", so a table's header or
# "TFLOP/sec/GPU" is never read as one
_DEGREE_NOUN_AFTER = re.compile(r"\s*(?:-?\s*way\b|x\b|×|GPUs?\b|ranks?\b|devices?\b|chips?\b|nodes?\b|shards?\b|وحد|شرائح|شريحت)", re.I)
_INLINE_SETTING = re.compile(r"(?<![A-Za-z_./])(?P<key>(?:max_|train_|total_)?steps|GPUs?|num_gpus|n_gpus|ngpus)\s*=\s*(?P<num>\d+)(?!\d|[.,]\d)")


# a count of tokens right after a size ("14.8T tokens", "14.8T من الرموز")
_TOKENS_AFTER = re.compile(r"\s*(?:tokens?\b|toks?\b|من الرموز|رموز|رمزًا|رمز\b|من البيانات)", re.IGNORECASE)


_AR_DECIMAL_COMMA = re.compile(r"(?<![\d,.])(\d{1,3}),(\d{1,2})(?![\d,.])")  # one or two digits after it: never thousands
_AR_THOUSANDS = re.compile(r"(?<=(?<![\d.,،])\d)،(?=\d{3}(?![\d.]))|(?<=(?<![\d.,،])\d\d)،(?=\d{3}(?![\d.]))|(?<=(?<![\d.,،])\d\d\d)،(?=\d{3}(?![\d.]))")


_LINE = re.compile(r"[^\n]+")
_CLOCK = re.compile(r"(?<![\d:.,])(\d{1,3}):([0-5]\d)(?::([0-5]\d))?(?![\d:]|\s*(?:[ap]\.?m\b|UTC|GMT))", re.I)
_ELAPSED_WORD = re.compile(r"\b(?:wall|wall-?clock|elapsed|duration|took|runtime|run time|epoch|training time|time)\b", re.I)
_ARROW_BETWEEN = re.compile(r"\s*(?:->|→|=>|to)\s*")
_RANK_NAME = re.compile(r"(TP|PP|DP|EP|CP|ETP|SP)\d{1,3}")  # "TP3" written as one word: a degree, or a rank when the text counts from TP0

class _Reader(_Units, _Relations, _Tables):
    """The state of one read: the text, protected spans, tokens, and the figures found so far."""

    def __init__(self, text: str):
        self.text = text
        self.norm = text.translate(_DIGITS) if _HAS_AR_DIGIT.search(text) else text
        if "،" in self.norm:  # "6،080 وحدة": the Arabic comma between thousands, one character for one
            self.norm = _AR_THOUSANDS.sub(",", self.norm)
        if "," in self.norm and _HAS_AR.search(self.norm) and len(_HAS_AR.findall(self.norm)) * 3 > len(self.norm):
            self.norm = _AR_DECIMAL_COMMA.sub(r"\1.\2", self.norm)  # "من 2,3 إلى 17,8 رمزًا في الثانية": a decimal comma
        if _HAS_MARKUP.search(self.norm):
            self.norm = _clean_markup(self.norm)
        self.figs: list[_Fig] = []
        # one byte per character: 1 where a name or a figure already stands, so overlap tests are one find()
        self.taken = bytearray(len(text))
        self.protected = bytearray(len(text))
        self.has_digit = _HAS_DIGIT.search(self.norm) is not None
        self.tokens = _tokens(self.norm)
        self.token_starts = [m.start() for m in self.tokens]
        self.hints: dict[int, str] = {}
        self.result_hints: dict[int, str] = {}  # expression start: what its stated result measures
        self.assigned: dict[int, str] = {}      # expression start: the symbol it is assigned to ("W=2 * 9e10")
        self._bounds: list[int] | None = None  # clause boundaries and word starts, found when first needed
        self._starts: list[int] | None = None
        self._word: dict[int, str] = {}
        self._snake: str | None = None
        self._peaks: list[float] | None = None  # catalog peaks of the chips the text names, found when first needed
        self._named_peaks: list[float] = []  # those of the chips the text names only
        self.moe_candidates: list[re.Match] = []
        self.product_candidates: list[re.Match] = []

    def read_all(self) -> list[_Fig]:
        """Every pass, in the order in which notations claim their spans; the figures found (overlaps not yet removed)."""
        for step in (self.protect, self.moe_names, self.products, self.compact, self.symbols, self.pipeline_letters,
                     self.expressions, self.duals, self.elapsed, self.generic, self.fractions, self.pairs, self.subjects, self.inherit,
                     self.tables, self.header_tables):
            step()
        self.figs = [f for f in self.figs if not self.rank_name(f)]
        return self.figs

    def rank_name(self, fig: _Fig) -> bool:
        """"TP0", and a "TP1–TP7" range in a text that writes it: ranks of that group, not degrees (a degree is at least 1)."""
        written = _RANK_NAME.fullmatch(self.norm[fig.start:fig.end])
        if not written or not fig.quantity.endswith("_degree"):
            return False
        name = written.group(1)
        ranged = re.search(rf"\b{name}\d+\s*[–—-]\s*{name}\d+\b", self.norm[max(0, fig.start - 8):fig.end + 8])
        return fig.value == 0 or bool(ranged and re.search(rf"\b{name}0\b", self.norm))

    # -- helpers

    @property
    def bounds(self) -> list[int]:
        if self._bounds is None:
            self._bounds = [m.start() for m in _BOUNDARY.finditer(self.norm)]
        return self._bounds

    @property
    def starts(self) -> list[int]:
        """Where words start; after an Arabic conjunction or preposition written onto the word, too ("وحجم")."""
        if self._starts is None:
            if _HAS_AR.search(self.norm):
                self._starts = [p for m in _CHUNK.finditer(self.norm)
                                for p in ((m.start(), m.start() + 1) if m.group(0)[0] in "وبلف" and len(m.group(0)) > 3 else (m.start(),))]
            else:
                self._starts = [m.start() for m in _CHUNK.finditer(self.norm)]
            # "(microbatch=4 ...": a word after an opening bracket or quote starts there too
            opened = [q for p in self._starts if self.norm[p] in "([{\"'“«" for q in (self.first_letter(p),) if q is not None]
            # "model.expert_model_parallel_size=3": a config key's last segment after its dotted prefix starts a word too
            opened += [m.start() + 1 for m in _DOTTED_KEY.finditer(self.norm)]
            # '58275.41,"ttft_avg_ms":8072.94': a compact JSON object's next key starts a word after its comma and quote
            opened += [m.start(1) for m in _JSON_NEXT_KEY.finditer(self.norm)]
            if opened:
                self._starts = sorted(set(self._starts).union(opened))
        return self._starts

    def first_letter(self, pos: int) -> int | None:
        """Where the word inside opening brackets or quotes starts ('{"stage": 3' -> the s)."""
        for k in (1, 2, 3):
            if pos + k >= len(self.norm):
                return None
            c = self.norm[pos + k]
            if c.isalpha():
                return pos + k
            if c not in "([{\"'“«":
                return None
        return None

    @property
    def snake(self) -> str:
        """The text with underscores as spaces, so key phrases read config keys ('expert_parallel_size: 1')."""
        if self._snake is None:
            self._snake = self.norm.replace("_", " ")
        return self._snake

    def clause(self, start: int, end: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.bounds, start - 1)
        lo = self.bounds[i - 1] + 1 if i else 0
        j = bisect.bisect_left(self.bounds, end)
        hi = self.bounds[j] if j < len(self.bounds) else len(self.norm)
        return max(lo, start - _WINDOW_BEFORE), min(hi, end + _WINDOW_AFTER)

    def is_free(self, start: int, end: int) -> bool:
        return self.taken.find(1, start, end) < 0 and self.protected.find(1, start, end) < 0

    def in_protected(self, start: int, end: int) -> bool:
        return self.protected.find(1, start, end) >= 0

    def protect_span(self, start: int, end: int) -> None:
        self.protected[start:end] = b"\x01" * (end - start)

    def number_between(self, a: int, b: int) -> bool:
        """Whether another number stands between a cue and this number (the cue then belongs to it)."""
        i = bisect.bisect_left(self.token_starts, a)
        while i < len(self.token_starts) and self.token_starts[i] < b and self.protected[self.token_starts[i]]:
            i += 1
        return i < len(self.token_starts) and self.token_starts[i] < b

    def add(self, fig: _Fig) -> _Fig:
        if not math.isfinite(fig.value) or not math.isfinite(fig.raw):
            # "12e45678" overflows to infinity: no reader takes it as a figure, nor a part of it as another
            self.taken[fig.start:fig.end] = b"\x01" * (fig.end - fig.start)
            return fig
        fig.approx = fig.approx or self.approx_at(fig.start, fig.end)
        self.figs.append(fig)
        if not fig.expression:
            self.taken[fig.start:fig.end] = b"\x01" * (fig.end - fig.start)
        return fig

    def approx_at(self, start: int, end: int) -> bool:
        return bool(_APPROX_BEFORE.search(self.norm, max(0, start - 20), start) or _APPROX_AFTER.match(self.norm, end))

    def cue(self, cls: str, start: int, end: int) -> dict | None:
        """The cue for a unit class nearest to the number, in the same clause, not claimed by another number."""
        lo, hi = self.clause(start, end)
        # words beyond the next number on either side are its cues, not this one's
        i = bisect.bisect_left(self.token_starts, start)
        if i and self.token_starts[i - 1] == start - 1:
            i -= 1  # this number's own token, read from after its Arabic particle ("بثماني")
        while i and self.protected[self.token_starts[i - 1]]:
            i -= 1  # the digits of a name ("1F1B", "H100") are no number with cues of its own
        if i:
            lo = max(lo, self.token_starts[i - 1] + 1)
        j = bisect.bisect_left(self.token_starts, end)
        while j < len(self.token_starts) and self.protected[self.token_starts[j]]:
            j += 1
        if j < len(self.token_starts):
            hi = min(hi, self.token_starts[j])
        best, best_distance = None, 10**9
        norm = self.norm
        table = _CUE_BEFORE.get(cls)
        if table:  # word starts nearest first; a match tried only where a word starts keeps this cheap
            for pos in reversed(self.starts_in(lo, start)):
                found = table.match(norm, pos, start, self.word(pos))
                if not found:
                    continue
                entry, m = found
                distance = start - m.end()
                if distance <= entry.get("max_gap", 10**6) and not self.number_between(m.end(), start):
                    best, best_distance = entry, distance
                break
        table = _CUE_AFTER.get(cls)
        if table:
            for pos in self.starts_in(end, hi):
                if pos - end >= best_distance:
                    break
                found = table.match(norm, pos, hi, self.word(pos))
                if not found:
                    continue
                if j < len(self.token_starts) and _LEADS_TO.fullmatch(norm, found[1].end(), self.token_starts[j]):
                    break  # "36T tokens with a context length of 32,768": the phrase names the next number
                if pos - end <= found[0].get("max_gap", 10**6) and not self.number_between(end, pos):
                    best = found[0]
                break
        return best

    def word(self, pos: int) -> str:
        """The letters of the word at pos, lower-cased, which pick the patterns worth trying there."""
        found = self._word.get(pos)
        if found is None:
            m = _LETTERS.search(self.norm, pos, pos + 8)
            found = self._word[pos] = m.group(0).lower() if m else ""
        return found

    def starts_in(self, lo: int, hi: int) -> list[int]:
        """Where words start between lo and hi."""
        return self.starts[bisect.bisect_left(self.starts, lo):bisect.bisect_left(self.starts, hi)]

    def dotted(self, starts: list[int], end: int) -> list[int]:
        """Word starts, and after them where each part of a dotted key starts ("model.expert_model_parallel_size=3")."""
        out = []
        for i, pos in enumerate(starts):
            out.append(pos)
            stop = starts[i + 1] if i + 1 < len(starts) else end
            dot = self.norm.find(".", pos, stop)
            while 0 <= dot < stop - 1:
                if self.norm[dot + 1].isalpha() and self.norm[dot - 1:dot].isalnum():
                    out.append(dot + 1)
                dot = self.norm.find(".", dot + 1, stop)
        return out

    def key_before(self, start: int, table: "_Table | None" = None) -> dict | None:
        table = table or _KEY_TABLE
        found = None
        i = bisect.bisect_left(self.token_starts, start)
        lo = max(start - 40, self.token_starts[i - 1] + 1 if i else 0)  # a key phrase is never past another number
        line_start = self.norm.rfind("\n", lo, start)
        if line_start >= 0 and _HEADER_LINE.fullmatch(self.norm, self.norm.rfind("\n", 0, line_start) + 1, line_start):
            lo = line_start + 1  # "target draft before after speedup" over "7B ...": a table's header names its columns
        taken = self.taken.rfind(1, lo, start)
        if taken >= 0:
            lo = taken + 1  # nor inside another figure ("450 samples/s at 1.1 s/step": the unit is that figure's)
        for pos in self.dotted(self.starts_in(lo, start), start):  # farthest first: the longest key phrase wins
            found = table.match(self.norm, pos, start, self.word(pos))
            if not found and "_" in self.norm[pos:start]:
                found = table.match(self.snake, pos, start, self.word(pos).split("_")[0])
            if found:
                break
        if not found:
            return None
        entry = found[0]
        if "needs_nearby" in entry:
            lo, hi = self.clause(start, start)
            if not re.search(entry["needs_nearby"], self.norm[max(0, lo - 40):hi], _I):
                return None
        return entry

    # -- passes

    def protect(self) -> None:
        norm = self.norm
        for pattern in (_LIST_MARK, _CLUTTER_LINE) if self.has_digit else ():  # both need a digit
            for m in pattern.finditer(norm):
                self.protect_span(*m.span())
        # every name pattern holds a digit, so names are looked for only around the numbers
        for t in self.tokens:
            if t.group("num") is None:
                continue
            s, e = t.start("num"), t.end()
            m = _NAMES_DIGIT.match(norm, s)
            if m:
                self.protect_span(*m.span())
            for m in _NAMES_WORD.finditer(norm, max(0, s - 16), min(len(norm), e + 4)):
                if m.start() <= s < m.end():
                    self.protect_span(*m.span())
            i = bisect.bisect_right(self.starts, s) - 1
            if i >= 0 and _LINK_CHUNK.match(norm, self.starts[i]):
                self.protect_span(s, e)
            m = _MOE_NAME.match(norm, s)
            if m:
                self.moe_candidates.append(m)
            m = _PRODUCT.match(norm, s)
            if m:
                self.product_candidates.append(m)
        for m in _MODEL.finditer(norm):
            if (not m.start() or not (norm[m.start() - 1].isalnum() or norm[m.start() - 1] == "-")) and not self.in_protected(*m.span()):
                self.model_name(m, _model_id(m.group(0)))

    def model_name(self, m: re.Match, model: str | None) -> None:
        """A model's name is not a figure, but the size in it ("Llama 3 70B", "Qwen3-30B-A3B") is."""
        sized = _MODEL.fullmatch(m.group(0)) or _MODEL.match(m.group(0))
        offset = m.start()
        if sized and sized.group("size") and "x" not in m.group(0).lower().split()[-1][:3]:
            self.protect_span(offset, offset + sized.start("size"))
            if " " in m.group(0)[sized.start("size") - 1:sized.start("size")] and _TOKENS_AFTER.match(self.norm, offset + sized.end("size")):
                return  # "DeepSeek-V3 14.8T tokens", "... 14.8T من الرموز": the data's size after the name, not the model's
            self.moe_name(sized, offset, model)
        else:
            self.protect_span(*m.span())

    def moe_name(self, m: re.Match, offset: int, model: str | None) -> None:
        size = m.group("size")
        value, _ = _number(_Tok(_DIGIT_TOKEN.match(size), size))
        s = offset + m.start("size")
        self.add(_Fig(s, s + len(size), "params", value, model=model, raw=value, generic=False))
        if m.group("act"):
            s = offset + m.start("act") - 1  # the quote keeps the "A" of "A3B"
            value, _ = _number(_Tok(_DIGIT_TOKEN.match(m.group("act")), m.group("act")))
            self.add(_Fig(s, offset + m.end("act"), "active_params", value, model=model, raw=value, generic=False))

    def moe_names(self) -> None:
        for m in self.moe_candidates:
            if self.is_free(*m.span()):
                self.moe_name(m, 0, None)

    def products(self) -> None:
        """`8×8 H100`: nodes times chips per node."""
        for m in self.product_candidates:
            if not self.is_free(*m.span()):
                continue
            a, b = int(m.group("a")), int(m.group("b"))
            tail = _CHIP_AFTER.match(self.norm, m.end())
            end, chip = m.end(), None
            if tail:
                end, chip = tail.end(), _chip_id(tail.group("name"))
            else:
                noun = _NOUNS.match(self.norm, m.end())
                end = noun.end() if noun else end
            self.add(_Fig(m.start(), end, "n_chips", float(a * b), chip=chip, raw=float(a * b), generic=False,
                          detail={"n_nodes": a, "chips_per_node": b}))

    def compact(self) -> None:
        if not self.has_digit:  # every compact notation ends in digits
            return
        for m in _INLINE_SETTING.finditer(self.norm):  # "steps=60000, ... GPU=64": a config written inline
            if self.is_free(m.start(), m.end()):
                raw = float(m.group("num"))
                quantity = "steps" if m.group("key").lower().endswith("steps") else "n_chips"
                self.add(_Fig(m.start(), m.end(), quantity, raw, raw=raw, generic=False))
        for m in _COMPACT.finditer(self.norm):
            abbr = m.group("abs") or m.group("abbr")
            if abbr in _SIGN_ONLY and not (m.group("abs") or "=" in m.group("sep") or ":" in m.group("sep")):
                continue
            if m.group("sep") == "-" and abbr not in ("ZeRO", "Zero", "ZERO", "top-", "Top-", "TP", "PP", "DP", "EP", "CP"):
                continue
            if not self.is_free(m.start("num"), m.end()):
                continue
            if abbr in ("FSDP", "HSDP") and not m.group("sep").strip() and m.group("num") in ("1", "2") \
                    and not _DEGREE_NOUN_AFTER.match(self.norm, m.end()):
                continue  # FSDP1, "FSDP 2" and HSDP2 are PyTorch's implementations, not degrees ("FSDP 2 GPUs" is one)
            quantity = _ABBR[abbr]
            if quantity.endswith("_degree") and not m.group("num").isdigit():
                continue  # "FSDP: 9.75 samples/sec": a degree is a whole number; this is a log's value after its label
            raw = float(m.group("num"))
            end = m.end()
            if m.group("k") == "M":
                raw *= 1e6
            elif m.group("k"):
                raw *= 1024 if quantity == "seq_len" and _SEQ_K.match(m.group("num")) else 1000
            if quantity == "global_batch_sequences":  # "BS=2M" is tokens; "BS=850 per TPU" one chip's share
                per = _PER_CHIP.match(self.norm, end)
                if per:
                    end = per.end()
                    quantity = "micro_batch" if raw < 128 else self.critical("tokens_per_chip", m.start())
                elif raw >= 1e5:
                    quantity = "global_batch_tokens"
                elif raw < 128 and _FITS.search(self.norm, *self.clause(m.start(), end)):
                    quantity = "micro_batch"  # "FSDP allows bs=16 (vs bs=2 for DDP)": what fits is what one device holds
            detail = _ABBR_DETAIL.get(abbr)
            start = m.start() if m.group("abs") is None else m.start()
            self.add(_Fig(start, end, quantity, raw, raw=raw, generic=False, detail=dict(detail) if detail else None))
        if "=" in self.norm and _EXPERT_CONTEXT.search(self.norm):
            for m in _TOP_K_LETTER.finditer(self.norm):  # "k=1" beside experts: how many each token is routed to
                if self.is_free(m.start(), m.end()):
                    raw = float(m.group("num"))
                    self.add(_Fig(m.start(), m.end(), "moe_top_k", raw, raw=raw, generic=False))

    def critical(self, quantity: str, start: int) -> str:
        """A per-chip batch stated as a minimum ("must be at least 2,550", "> 400") is the critical batch."""
        if quantity == "tokens_per_chip" and _THRESHOLD.search(self.norm, max(0, start - 40), start):
            return "critical_tokens_per_chip"
        return quantity

    def symbols(self) -> None:
        """Formula letters given a value: "C=4.6e14", "$F=32,768$", "W=2 * 9e10", "$B/N > 400$"."""
        if not self.has_digit or "=" not in self.norm and ">" not in self.norm and "exceed" not in self.norm and "least" not in self.norm:
            return
        for m in _SYMBOL.finditer(self.norm):
            at = m.end()
            while self.norm[at:at + 1] in "( ":
                at += 1
            expr = _EXPR.match(self.norm, m.end())
            if expr and m.group("cmp") == "=" and _EXPR_NEEDS.search(expr.group(0)):
                self.assigned[_balanced(self.norm, *expr.span())[0]] = m.group("sym")
                continue
            i = bisect.bisect_left(self.token_starts, at)
            if i >= len(self.token_starts) or self.token_starts[i] != at:
                continue
            tok = self.tokens[i]
            if tok.group("num") is None or not self.is_free(at, tok.end()):
                continue
            raw, _ = _number(tok)
            quantity = _symbol_quantity(m.group("sym"), raw)
            if quantity is None:
                continue
            if quantity == "tokens_per_chip" and (m.group("words") or (m.group("cmp") or "").startswith((">", "≥"))):
                quantity = "critical_tokens_per_chip"
            self.add(_Fig(at, tok.end(), quantity, raw, raw=raw, generic=False))

    def line_start(self, pos: int) -> int:
        return self.norm.rfind("\n", 0, pos) + 1

    def pipeline_letters(self) -> None:
        """"M=8", "P=4", "v=2" in a text about pipelines: micro-batches, stages and model chunks as the literature writes them."""
        if "=" not in self.norm or not _PIPE_CONTEXT.search(self.norm):
            return
        for m in _PIPE_LETTER.finditer(self.norm):
            e = m.end()
            if not self.is_free(m.start(), e) or _GEMM_SHAPE.search(self.norm, max(0, m.start() - 40), min(len(self.norm), e + 40)):
                continue
            raw = float(m.group("num"))
            self.add(_Fig(m.start(), e, _PIPE_LETTERS[m.group("sym")], raw, raw=raw, generic=False))

    def unit_label(self, start: int, end: int, raw: float) -> "_Fig | None":
        """A number after its unit as a label: "peak hardware tflop/s=459", "Tokens/s/device: 8672.758"."""
        m = _UNIT_LABEL.search(self.norm, max(0, start - 40), start)
        if not m:
            return None
        if m.group("p") is not None or "flop" in m.group("u").lower():
            scale = _PREFIX_SCALE.get((m.group("p") or m.group("p2") or "").lower(), 1.0)
            # "TFLOP/s/device: 257.929" or "mfu: 35%  tflops: 354.02" in a step log is what one device achieved;
            # "peak hardware tflop/s=459" is the peak
            named_peak = re.search(r"peak|theoretical|hardware", self.norm[max(0, m.start() - 24):m.start()], _I)
            log_line = _LOG_FIELD.search(self.norm, self.line_start(m.start()), m.start()) or _LOG_FIELD.match(self.norm, end)
            peak = named_peak or not (m.group("fchip") or log_line or m.group("verb"))  # "the tflops is up to 322": what a run reached
            return _Fig(start, end, "peak_flop_per_s" if peak else "achieved_flop_per_s" if m.group("verb") else "flop_per_s_per_chip",
                        raw * scale, unit=m.group("u"), raw=raw, scale=scale, generic=False)
        # torchtitan's step log "memory: 82.46GiB(86.80%)  tps: 100  mfu: 26.52%" counts one device's tokens per second
        per_device_log = m.group("u").lower() == "tps" and _MEMORY_SHARE.search(self.norm, self.line_start(m.start()), m.start())
        quantity = "tokens_per_s_per_chip" if m.group("chip") or m.group("tgs") or per_device_log else "tokens_per_s"
        return _Fig(start, end, quantity, raw, unit=m.group("u"), raw=raw, generic=False)

    def expressions(self) -> None:
        if not _HAS_EXPR.search(self.norm):
            return
        for m in _EXPR.finditer(self.norm):
            start, end = _balanced(self.norm, *m.span())
            source = self.norm[start:end]
            if not _EXPR_NEEDS.search(source) or len(re.findall(r"\d[\d,.]*", source)) < 2:
                continue
            if self.in_protected(start, end) or self.taken.find(0, start, end) < 0:
                continue
            if re.fullmatch(r"\s*\d+\s*/\s*\d+\s*", source) and "/" in source and self.norm[end:end + 1] == "/":
                continue  # a date or path, not a division
            if end < len(self.norm) and self.norm[end] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻^":
                continue  # "6.3 × 10²⁴" is one number, not 6.3 times 10
            value = _evaluate(source)
            if value is None:
                continue
            roles = _operand_roles(self.norm, start, end)
            if -1 in roles:
                self.result_hints[start] = roles.pop(-1)
            self.hints.update(roles)
            symbol = self.assigned.get(start)
            quantity = _symbol_quantity(symbol, value) if symbol else None
            self.add(_Fig(start, end, quantity or "expression", value, raw=value, generic=False, expression=True))

    def duals(self) -> None:
        """Arabic dual time words ("أسبوعين", two weeks) are a number and a unit in one word; so are dual counts
        ("حاسوبين عملاقين", two supercomputers)."""
        if not _HAS_AR.search(self.norm):
            return
        for m in _AR_DUAL_COUNT.finditer(self.norm):
            if (not m.start() or not "\u0600" <= self.norm[m.start() - 1] <= "\u06FF") and self.is_free(*m.span()):
                self.add(_Fig(m.start(1), m.end(), _AR_DUAL_COUNTS[m.group(1)], 2.0, raw=2.0, generic=False))
        for m in _AR_DUAL.finditer(self.norm):
            if (not m.start() or not "\u0600" <= self.norm[m.start() - 1] <= "\u06FF") and self.is_free(*m.span()):
                seconds = float(_AR_DUALS[m.group(1)])
                self.add(_Fig(m.start(), m.end(), "time_s", seconds, unit=m.group(1), raw=2.0, scale=seconds / 2, generic=False))

    def elapsed(self) -> None:
        """"epoch wall : 20:41 -> 19:15": durations written with colons, read as minutes and seconds (hours first when
        there are three parts), only where a duration word stands on their line and two of them are set one after the
        other, so that a clock time ("at 20:41") is never one."""
        for line in _LINE.finditer(self.norm):
            found = list(_CLOCK.finditer(self.norm, line.start(), line.end()))
            if len(found) != 2 or not _ELAPSED_WORD.search(line.group()) or not _ARROW_BETWEEN.fullmatch(self.norm, found[0].end(), found[1].start()):
                continue
            for m in found:  # a clock time is protected as a name; set one after the other, these two are durations
                if self.taken.find(1, *m.span()) >= 0:
                    break
                parts = [int(g) for g in m.groups() if g is not None]
                seconds = float(parts[0] * 3600 + parts[1] * 60 + parts[2] if len(parts) == 3 else parts[0] * 60 + parts[1])
                self.add(_Fig(m.start(), m.end(), "time_s", seconds, unit="h:mm:ss" if len(parts) == 3 else "m:ss", raw=seconds,
                              generic=False))

    def generic(self) -> None:
        for m in self.tokens:
            start = m.start("num") if m.group("num") else m.start()
            if not self.is_free(start, m.end()):
                continue
            fig = self.read_token(m, start)
            if fig:
                self.add(fig)
