"""Figures read together: from/to pairs, ranges, the subject of a bare percentage, fractions, inherited units."""

import bisect
import re
from service.explain.figures.record import _Fig
from service.explain.figures.words import _SEQ_K, _ARROW, _BY, _CHANGE_VERB, _EN, _FRACTION, _FRACTION_WORDS, _FROM, _I, _LESS_AFTER, _MFU_WORD, _OR, _PARALLEL_DEGREE, _PARALLEL_NOUN, _POD_WORD, _RANGE_DASH, _RANGE_WORD, _UNIT_DEFAULTS, _VERSUS, _RESPECTIVELY, _RESULT, _SENTENCE_END, _SUBJECT, _TO, _rx
from service.explain.figures.values import _number, _share


_LINK_WORD = _rx(r"NVLink|NVSwitch|ICI|interconnect|network|fabric|InfiniBand|Ethernet|PCIe|link|DCN|الشبكة|شبكة|ربط|الربط|وصلات", _I)
_LINK_AFTER = _rx(r"\s+(?:[A-Za-z-]+\s+){0,2}?(?:NVLink|NVSwitch|ICI|interconnect|InfiniBand|Ethernet|PCIe|EFA|network(?:ing)?|link)\b", _I)
_ASIDE = _rx(r",[^,.;\n]*,|\([^()\n]*\)")
_THIS_NUMBER = _rx(r"\b(?:this|that|the same) (?:number|figure|gain|improvement|speed-?up|advantage|margin)\b[^.;\n]*?\b(?:to|reach\w*|hit\w*)\s+(?:about |roughly |~\s*)?$", _I)
_OPERANDS = _rx(r"\d[\d,.]*")
_RESULT_AFTER = _rx(r"\s*(?:=|≈|~|is about|is roughly|gives|yields)\s*\d")
_PIN_WORD = _rx(r"\bpins?\b|per[- ]pin|data rate|دبوس|الدبوس", _I)
_NEXT_SENTENCE_END = _rx(r"[.!?;](?:\s|$)|\n")
_CHANGED_TO = _rx(r",?\s*(?:and\s+)?(?:later\s+|then\s+)?(?:extended|increased|raised|grown|grew|scaled|expanded|reduced|cut|lowered|dropped|bumped|brought|moved|went)(?:\s+it)?(?:\s+up|\s+down)?\s+to\s*(?:~\s*)?", _I)
_STAGE_WORD = _rx(r"stages?\b|مراحل|مرحلة", _I)
_HFU_WORD = _rx(r"HFU|hardware (?:FLOPs?|flops) utili[sz]ation|recomput", _I)
_RESULT_SUBJECT = _rx(r"\bbubble\b|\bMFU\b|\bHFU\b|(?:model|hardware) (?:FLOPs?|flops) utili[sz]ation", _I)
_GLOBAL_WORD = _rx(r"global|total|effective|GBS|gbs|overall", _I)
# "Each GPU processes a batch of 16 sequences": a per-device opener before a batch makes it one device's share.
_EACH_CHIP_BEFORE = re.compile(r"\b(?:each|every|per)\s+(?:chip|device|GPU|TPU|accelerator|rank|worker)\b[^.;:]*$", re.I)


def _dimension(quantity: str, unit: str | None) -> str | None:
    """What a quantity measures, coarsely: a time, a size in bytes, a share, a FLOP rate or count."""
    if unit == "%":
        return "share"
    if "bytes" in quantity and not quantity.endswith("_per_s") or quantity == "bytes":
        return "bytes"
    if quantity.endswith("_per_s") and "flop" in quantity:
        return "flop_rate"
    if quantity.endswith("_s") and not quantity.endswith("_per_s") or quantity == "time_s":
        return "time"
    return None


# Words that make "from X to Y" or "X and Y" a spread of values, not a change from one to the other.
_RANGING = re.compile(r"\b(?:rang(?:e|es|ed|ing)|between|var(?:y|ies|ied|ying)|spread)\b|تتراوح|يتراوح|بين", re.I)


# After "from X to Y": over how many things the values spread ("... in four MLPerf models", "across 8 benchmarks").
_SPREAD_AFTER = re.compile(r"[^.;:!?\n]{0,24}?\b(?:in|across|over|for|on|among)\s+(?:the\s+|each\s+of\s+(?:the\s+)?)?"
                           r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|various|different|all)\s+\w+"
                           r"|[^.;:!?\n]{0,24}?\b(?:depending on|according to)\b"
                           r"|[^.;:!?\n]{0,24}?(?:في|عبر|على)\s+(?:\d+|اثن|ثلاث|أربع|خمس|ست|عدة|مختلف)", re.I)
# "of the 419 failures", "من بين 419 فشلًا": a total whose parts the sentence goes on to count
_OF_THE = re.compile(r"(?:\b(?:of|among|out of)(?:\s+(?:the|all|these|those))?|من بين|من أصل|من إجمالي)\s*$", re.IGNORECASE)
_PARTITIONED = frozenset({"n_failures", "n_chips", "n_nodes", "n_links", "moe_experts", "n_layers", "n_pods"})
# between two items of a list of figures: "38.4%, 36.1%, and 32.0%"
_LIST_GAP = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|\s*،\s*(?:و\s*)?|\s+و\s*")
_SENTENCE_STOP = re.compile(r"[.!?؟](?:\s|$)|\n")
_BRACKETED = re.compile(r"\s*\(\s*")
# a count with its own unit or noun after it is another figure ("148 of them", "72 hours")
_NOUN_AFTER_PART = re.compile(r"\s*(?:[A-Za-z]{2,}|[\u0621-\u064A]{2,})?\s*(?:%|٪|[A-Za-z]+/s)")


_OWN_LABEL = re.compile(r"(?<![\w.-])[A-Za-z_][\w.-]*\s*[=:]\s*$")  # "DDP=", "world_size: " right before a number


class _Relations:
    """The reader's rules that relate figures (a mixin of _Reader: it uses the reader's state)."""

    def pairs(self) -> None:
        """"from 9% to 5%": the old and new value of one quantity; "8-16 GPUs": a range."""
        figs = sorted((f for f in self.figs if not f.expression), key=lambda f: f.start)
        for a, b in zip(figs, figs[1:]):
            between = self.norm[a.end:b.start]
            changed = b.generic and not a.generic and len(between) <= 32 and _CHANGED_TO.fullmatch(between)
            if len(between) > 12 and not changed or re.fullmatch(r"[^\n]*\n\s*(?:[-*•]|\d+[.)])\s*", between):
                continue  # far apart, or on two items of a list ("...14,336 bytes\n- 32,640 tokens ..."): no range, no change
            if any(x.quantity == "number" and x.unit is None and self.norm[x.end:x.end + 1].isalpha() for x in (a, b)):
                continue  # "41.8 t/s → 36J" (round 103 P14): a number glued to a unit this reader lacks is its own quantity
            before = _FROM.search(self.norm, max(0, a.start - 24), a.start)
            ranging = _RANGING.search(self.norm, max(0, a.start - 40), a.start)
            spread = _TO.match(between) and _SPREAD_AFTER.match(self.norm, b.end)
            if (ranging or spread) and (_TO.match(between) or _RANGE_WORD.match(between) or re.match(r"\s*and\s*$", between)):
                role = ("low", "high")  # "times range from 16 to 28 seconds across four models": a spread, not a change
            elif (before and _TO.match(between)) or _ARROW.match(between) or changed:
                role = ("before", "after")  # "from 9% to 5%", "8→16", "32,768, extended to 128K"
            elif _RANGE_DASH.match(between) and self.norm[a.start - 2:a.start - 1].isalpha() and self.norm[a.start - 1:a.start] in "-_" \
                    and between in ("-", "_"):
                continue  # "gemma-4-26B", "Llama-3-70B": a version inside a model's name, not a range of sizes
            elif between == " - " and a.unit is not None and b.unit is None:
                continue  # "~2.5 MB - 4k context: ~10 GB": a dash between two items of a line, not a range of one size
            elif _RANGE_DASH.match(between) or (before is None and _RANGE_WORD.match(between)):
                role = ("low", "high")
            elif (_OR.match(between) and a.quantity == "number" or _VERSUS.match(between) and a.unit is None
                  and not any(c.isalpha() for c in self.norm[a.start:a.end])) and not b.generic \
                    and (b.unit is None or b.unit != "%") and self.comparable(a, b) \
                    and not (self.norm[b.start].isalpha() and _OWN_LABEL.search(self.norm, max(0, a.start - 24), a.start)) \
                    and not re.search(r"\b[A-Za-z_]\w{0,10}\s*=\s*$", self.norm[max(0, a.start - 14):a.start]):
                # ("at N=16 and 124.9 ms/step at N=256": the 16 is N's value, not a time, round 90 P04)
                # ("DDP=8, TP=4": the 8 is DDP's, a label of its own, not a tensor-parallel degree like the TP=4 after it)
                # "8 or 128 H100 GPUs", "532 and 557 TFLOPs", "30 و191 مليون دولار", "199.5 vs 185.2 TFLOP/s": the first
                # number is in the second's unit
                a.quantity, a.chip, a.generic = b.quantity, b.chip, False
                if b.unit is not None:
                    a.unit, a.scale, a.value = b.unit, b.scale, a.raw * b.scale
                self.share_multiplier(a, b)
                continue
            elif re.fullmatch(r"\s*(?:out\s+of|of|من\s+(?:أصل|بين))\s*", between) and a.quantity == "number" and a.raw == int(a.raw) \
                    and b.quantity.startswith("n_") and 0 < a.raw < b.raw:
                a.quantity, a.chip, a.generic = b.quantity, b.chip, False  # "8 out of 72 GPUs": eight GPUs
                continue
            elif _VERSUS.match(between) and self.same_magnitude(a, b):
                # "15.6 trillion tokens vs. 1.8 trillion for Llama 2": the second count is of the same thing
                b.quantity, b.chip = a.quantity, a.chip
                continue
            elif _OR.match(between) and b.generic and b.quantity == "count" and not a.generic and a.unit is None and a.raw \
                    and self.norm[a.end - 1:a.end].lower() == self.norm[b.end - 1:b.end].lower() == "k":
                # "sequence lengths of 16K, 32K and 64K": a list in one notation measures one thing
                b.quantity, b.generic, b.scale, b.value = a.quantity, False, a.scale, b.raw * a.scale
                continue
            elif _VERSUS.match(between) and b.quantity == "number" and not a.generic and a.unit is not None:
                # "996 TFLOP/s/GPU versus 967": the number compared is in the same unit
                b.quantity, b.chip, b.generic, b.unit, b.scale, b.value = a.quantity, a.chip, False, a.unit, a.scale, b.raw * a.scale
                continue
            else:
                continue
            one_bare = (a.unit is None) != (b.unit is None)
            if role[0] == "low" and not (a.generic or b.generic or one_bare):
                continue
            if role[0] == "low" and between == "-" and a.unit is None and "." in self.norm[a.start:a.end] \
                    and b.quantity in ("params", "active_params") and before is None \
                    and not re.match(r"\s*(?:parameters?|params)\b", self.norm[b.end:]) and "param" not in self.norm[b.start:b.end].lower():
                # "3.1-8B", "2.5-32B": a model's version and its size (Llama 3.1-8B, Qwen2.5-32B), not a range of sizes
                a.quantity, a.value = "number", a.raw
                continue
            for x, y in ((a, b), (b, a)):  # "47–48%", "30-50%": the bare end is a percentage too
                if x.quantity == "number" and x.unit is None and y.unit == "%":
                    x.quantity, x.unit, x.scale, x.value = y.quantity, "%", y.scale, x.raw * y.scale
            _share(a, b)
            for x, y in ((a, b), (b, a)):  # "step time from 1.9s to 1.4s": the unit's default takes the partner's quantity
                if x.unit and y.unit and x.quantity in _UNIT_DEFAULTS and y.quantity not in _UNIT_DEFAULTS \
                        and _dimension(x.quantity, x.unit) == _dimension(y.quantity, y.unit) is not None:
                    x.quantity = y.quantity
            for x, y in ((a, b), (b, a)):  # "doubles every 5 to 9 months": the key's quantity, the unit's scale
                if x.unit is None and y.unit is not None and x.quantity != "number" and x.quantity not in _UNIT_DEFAULTS \
                        and y.quantity in _UNIT_DEFAULTS and not x.generic:
                    y.quantity = x.quantity
                    x.unit, x.scale, x.value = y.unit, y.scale, x.raw * y.scale
            self.share_multiplier(a, b)
            for x in (a, b):  # "extended to 128K": a context written in K is in units of 1,024 tokens
                if x.quantity == "seq_len" and x.value == x.raw and self.multiplier_at(x.start) == 1000 and _SEQ_K.match(f"{x.raw / 1000:g}"):
                    x.value = x.raw / 1000 * 1024
            if role[0] == "low" and a.quantity == b.quantity == "percent" and a.unit == b.unit == "%":
                cue = self.cue("percent", a.start, a.end)  # "تحسينات تتراوح بين 30-40%": a change named before the range is both ends
                if cue and cue["quantity"] == "percent_change":  # (a subject such as MFU is the subjects pass's to give)
                    sign = cue.get("sign", 1)
                    for x in (a, b):
                        x.quantity, x.generic = "percent_change", False
                        x.value, x.scale = x.value * sign, x.scale * sign
            a.role, b.role = role
            a.pair, b.pair = b, a
        exprs = [f for f in self.figs if f.expression]
        fig_starts = [f.start for f in figs]
        for e in exprs:
            self.product_unit(e, figs[bisect.bisect_left(fig_starts, e.start):bisect.bisect_left(fig_starts, e.end)])
            for f in figs[bisect.bisect_left(fig_starts, e.end):]:
                between = self.norm[e.end:f.start]
                if len(between.strip()) > 10:  # longer than "is roughly": no later figure can be the result either
                    break
                if _RESULT.match(between):
                    f.role = "result"
                    if f.quantity == "number" and e.start in self.result_hints:
                        f.quantity, f.generic = self.result_hints[e.start], False
                    elif f.quantity == "percent":  # "The pipeline bubble is (p-1)/m = 3/12 = 25%": the sentence's subject
                        subject = _RESULT_SUBJECT.search(self.norm, self.sentence_start(e.start), e.start)
                        if subject:
                            words = subject.group(0).lower()
                            f.quantity = "bubble_fraction" if "bubble" in words else "hfu" if "hfu" in words or "hardware" in words else "mfu"
                            f.generic = False
                    break

    def product_unit(self, e: _Fig, inside: list[_Fig]) -> None:
        """"70*4*8 GB ~ 2TB": the unit after the last operand is the product's, so that operand is a bare count (8 GPUs), not
        a size of its own; said only where the product of three or more operands has a result stated after it."""
        last = inside[-1] if inside else None
        if last is None or last.unit is None or last.end <= e.end or len(_OPERANDS.findall(self.norm, e.start, e.end)) < 3:
            return
        if inside[0].unit is None and _RESULT_AFTER.match(self.norm, last.end):
            last.quantity, last.unit, last.value, last.scale, last.generic = "number", None, last.raw, 1.0, True
            last.end = e.end

    def same_magnitude(self, a: _Fig, b: _Fig) -> bool:
        """Whether b is a bare count with a scale word whose quantity is only the default guess for its scale, and a counts
        tokens or parameters with the same scale written ("15.6 trillion tokens vs. 1.8 trillion")."""
        if a.unit is not None or b.unit is not None or a.quantity not in ("tokens", "params") or b.quantity not in ("tokens", "params", "count"):
            return False
        if a.quantity == b.quantity or self.multiplier_at(a.start) == 1.0 or self.multiplier_at(b.start) != self.multiplier_at(a.start):
            return False
        return b.end == self.token_end(b.start) and self.cue("magnitude", b.start, b.end) is None

    def token_end(self, start: int) -> int:
        """Where the number token at start ends (its noun, if any, not included)."""
        i = bisect.bisect_left(self.token_starts, start)
        return self.tokens[i].end() if i < len(self.token_starts) and self.token_starts[i] == start else -1

    def comparable(self, a: _Fig, b: _Fig) -> bool:
        """Two numbers as written within a factor of 100 ("532 and 557 TFLOPs", "30 and 191 million"), not "step 500 and 1.2 TB"."""
        if b.unit is None:  # "8 or 128 H100 GPUs"; never "transformer-engine 1.7, 2 nodes" (a count is whole)
            return a.raw == int(a.raw) or b.raw != int(b.raw)
        written = b.raw / self.multiplier_at(b.start)
        return written > 0 and 0.01 <= a.raw / written <= 100

    def share_multiplier(self, a: _Fig, b: _Fig) -> None:
        """"between 30 and 191 million dollars": a bare first number takes the second's written multiplier."""
        fa, fb = self.multiplier_at(a.start), self.multiplier_at(b.start)
        if fa == 1.0 and fb != 1.0 and a.raw * fb <= b.raw and a.quantity == b.quantity:
            a.raw, a.value = a.raw * fb, a.value * fb

    def multiplier_at(self, start: int) -> float:
        """The multiplier written with the digit token at start ("191 مليون" -> 1e6), 1 when none."""
        i = bisect.bisect_left(self.token_starts, start)
        if i >= len(self.token_starts) or self.token_starts[i] != start or self.tokens[i].group("num") is None:
            return 1.0
        tok = self.tokens[i]
        written = float(tok.group("num").replace(",", "").replace("’", ""))
        value, mult = _number(tok)
        return value / written if mult and written else 1.0

    def sentence_start(self, start: int) -> int:
        m = _SENTENCE_END.search(self.norm, max(0, start - 300), start)
        return m.end() if m else max(0, start - 300)

    def subjects(self) -> None:
        """What a bare percentage or factor measures, from its sentence: "MFU increases from 41% to 47-48%",
        "reducing execution time overhead ... by over 90%", "reduces activation memory by 5x", "8-way and 16-way tensor and
        pipeline parallelism, respectively", "each of them has 4000 chips" in a sentence about supercomputers (pods)."""
        norm = self.norm
        figs = sorted((f for f in self.figs if not f.expression), key=lambda f: f.start)
        for i, f in enumerate(figs):
            if f.quantity == "percent" and f.unit == "%" and not (_BY.search(norm, max(0, f.start - 24), f.start)
                                                                 and _CHANGE_VERB.search(norm, self.sentence_start(f.start), f.start)):
                # "improves throughput and MFU by 11.01%" is a change of the MFU, not an MFU of 11.01% (round 45)
                lo = self.sentence_start(f.start)
                subject = None
                for subject in _SUBJECT.finditer(norm, lo, f.start):
                    pass
                asides = [(a.start(), a.end()) for a in _ASIDE.finditer(norm, subject.end(), f.start)] if subject else []
                if subject and all(g.unit == "%" or any(a <= g.start and g.end <= b for a, b in asides)
                                   for g in figs[:i] if g.start >= subject.end()):
                    # "MFU, measured over 100 steps, was 38%": a figure in an aside does not take the subject
                    words = subject.group(0).lower()
                    f.quantity = "hfu" if "hfu" in words or "hardware" in words else "mfu" if "mfu" in words or "flop" in words else "utilization"
                    f.generic = False
                    continue
            if f.quantity in ("ratio", "speedup") and _LESS_AFTER.match(norm, f.end):
                f.quantity, f.generic = "reduction_factor", False  # "2x less memory"
            elif f.quantity in ("percent", "ratio", "memory_fraction", "mfu", "hfu", "utilization") and _BY.search(norm, max(0, f.start - 24), f.start):
                verb = None
                for verb in _CHANGE_VERB.finditer(norm, self.sentence_start(f.start), f.start):
                    pass
                if verb is None:
                    continue
                down = verb.group("down") is not None
                if f.quantity in ("percent", "memory_fraction", "mfu", "hfu", "utilization"):
                    f.quantity, f.value = "percent_change", -abs(f.value) if down else abs(f.value)
                else:
                    f.quantity = "reduction_factor" if down else "speedup"
                f.generic = False
            elif f.quantity == "chips_per_node" and _POD_WORD.search(norm, self.sentence_start(f.start), f.start):
                f.quantity = "chips_per_pod"
            elif f.quantity == "bandwidth_bytes_per_s" and self.beside_memory(figs, i):
                f.quantity = "memory_bandwidth_bytes_per_s"  # "192 GB of HBM with 7.4 TB/s": the bandwidth of that memory
            elif f.quantity == "memory_bandwidth_bytes_per_s" and _LINK_AFTER.match(norm, f.end):
                f.quantity = "bandwidth_bytes_per_s"  # "HBM3, 7.2 TB/s aggregate NVLink bandwidth": the words after name it
        self.peak_totals(figs)
        self.anaphora(figs)
        self.stages_over_ranks(figs)
        self.share_of_peak(figs)
        if "respectively" in norm:
            for m in _RESPECTIVELY.finditer(norm):
                lo = self.sentence_start(m.start())
                ways = [f for f in figs if lo <= f.start < m.start() and f.quantity == "parallel_degree"]
                if not ways:
                    continue
                nouns = _PARALLEL_NOUN.findall(norm, ways[-1].end, m.start())
                if len(nouns) == len(ways):
                    for f, noun in zip(ways, nouns):
                        f.quantity, f.generic = _PARALLEL_DEGREE[noun.lower()[:2]], False

    def beside_memory(self, figs: list[_Fig], i: int) -> bool:
        """Whether a bandwidth follows a chip's memory size in its sentence, with no link named there."""
        f, lo = figs[i], self.sentence_start(figs[i].start)
        return any(g.quantity == "hbm_bytes" and g.start >= lo for g in figs[:i]) and not _LINK_WORD.search(self.norm, lo, f.end + 40) \
            and not _PIN_WORD.search(self.norm, max(lo, f.start - 30), f.start)  # "a pin speed of 9.2 Gb/s" is one pin's rate

    def share_of_peak(self, figs: list[_Fig]) -> None:
        """"156 TFLOP/s per GPU (50% of peak)": the share of peak a stated per-chip rate reaches is its MFU (PaLM's definition:
        observed throughput over peak), unless the text says it counts hardware FLOPs."""
        for i, f in enumerate(figs):
            if f.quantity != "hfu":
                continue
            lo = self.sentence_start(f.start)
            if _HFU_WORD.search(self.norm, lo, f.end + 60):
                continue
            if any(g.quantity == "flop_per_s_per_chip" and g.start >= lo for g in figs[:i]):
                f.quantity = "mfu"

    def stages_over_ranks(self, figs: list[_Fig]) -> None:
        """"4 PP ranks (8 PP stages)": more stages than ranks in one sentence are the model's stages in all, several per rank."""
        for f in figs:
            if f.quantity != "pp_degree" or not _STAGE_WORD.search(self.norm, f.start, f.end):
                continue
            lo = self.sentence_start(f.start)
            ranks = [g for g in figs if g is not f and g.quantity == "pp_degree" and lo <= g.start
                     and g.start < f.start and not _STAGE_WORD.search(self.norm, g.start, g.end)]
            if ranks and f.value > ranks[-1].value and f.value % ranks[-1].value == 0:
                f.quantity = "pp_stages"

    def peak_totals(self, figs: list[_Fig]) -> None:
        """"A v4-8 totals 2,200 TFLOPS: each chip has 275 TFLOPS": a total that is a whole number of the sentence's chip peaks
        is the system's peak, not a rate it achieved."""
        for f in figs:
            if f.quantity != "flop_per_s":
                continue
            lo = self.sentence_start(f.start)
            hi = _NEXT_SENTENCE_END.search(self.norm, f.end)
            hi = hi.end() if hi else len(self.norm)
            for g in figs:
                if g.quantity == "peak_flop_per_s" and lo <= g.start < hi and g.value > 0:
                    n = f.value / g.value
                    if 2 <= round(n) <= 100000 and abs(n - round(n)) <= 0.005 * n:
                        f.quantity, f.generic = "peak_flop_per_s_total", False
                        break

    def anaphora(self, figs: list[_Fig]) -> None:
        """"up to 23% in throughput. This number can be further pushed to 31%": the same quantity as the figure it refers to."""
        for i, f in enumerate(figs):
            if f.quantity != "percent":
                continue
            if not _THIS_NUMBER.search(self.norm, self.sentence_start(f.start), f.start):
                continue
            earlier = [g for g in figs[:i] if g.unit == "%" and g.quantity not in ("percent", "number")]
            if earlier:
                f.quantity, f.generic = earlier[-1].quantity, False

    def fractions(self) -> None:
        """"by half", "a quarter of a TPU v5p pod": fractions written as words."""
        low = self.norm.lower()
        if not any(w in low for w in _FRACTION_WORDS):
            return
        for m in _FRACTION.finditer(self.norm):
            if not self.is_free(*m.span()):
                continue
            value = _EN["fractions"][m.group("w").lower()]
            if m.group("by"):
                verb = None
                for verb in _CHANGE_VERB.finditer(self.norm, self.sentence_start(m.start()), m.start()):
                    pass
                if verb is None:
                    continue
                quantity, value = "percent_change", -value if verb.group("down") else value
            elif m.group("of"):
                after = self.norm[m.end():m.end() + 40]
                quantity = ("fraction_of_pod" if _POD_WORD.match(after) or _rx(r"[^.,;]*?\b(?:pod|slice|superpod)s?\b", _I).match(after)
                            else "fraction_of_node" if _rx(r"[^.,;]*?\b(?:node|host|server)s?\b", _I).match(after) else "fraction")
            else:
                continue
            self.add(_Fig(m.start("n"), m.end(), quantity, value, raw=value, generic=False))

    def inherit(self) -> None:
        """A bare number equal to a distinctive figure read elsewhere in the text (8960, 0.4) measures the same thing."""
        known = {}
        for f in self.figs:
            if not f.generic and not f.expression and f.role != "result":
                known.setdefault(float(f"{f.value:.12g}"), f)
        for f in self.figs:
            # small whole numbers (4, 8) recur with different meanings; only distinctive ones carry over
            v = float(f"{f.value:.12g}")
            if f.quantity == "number" and v in known and (f.value != int(f.value) or abs(f.value) >= 100):
                f.quantity, f.unit, f.generic = known[v].quantity, known[v].unit, False
        by_raw = {float(f"{f.raw:.12g}"): f for f in self.figs
                  if not f.generic and not f.expression and f.scale != 1.0 and f.raw and f.quantity != "number"}
        for f in self.figs:  # "tflop/s=459 ... 134.924 / 459": the same 459, in the unit it was first given in
            v = float(f"{f.value:.12g}")
            if f.quantity == "number" and v in by_raw and (f.value != int(f.value) or abs(f.value) >= 100):
                k = by_raw[v]
                f.quantity, f.unit, f.scale, f.value, f.generic = k.quantity, k.unit, k.scale, f.raw * k.scale, False
        self.of_peak()
        self.per_device_batch()
        self.parts_of_a_count()
        self.shared_percent_word()

    def shared_percent_word(self) -> None:
        """"38.4%, 36.1%, and 32.0% MFU": the percentages of a list take the quantity its last one's word gives."""
        figs = sorted((f for f in self.figs if not f.expression and f.unit == "%"), key=lambda f: f.start)
        for i in range(len(figs) - 1, 0, -1):
            last = figs[i]
            if last.quantity == "percent" or last.generic:
                continue
            chain = []
            for j in range(i - 1, -1, -1):
                prev, nxt = figs[j], figs[j + 1]
                if prev.quantity != "percent" or not _LIST_GAP.fullmatch(self.norm, prev.end, nxt.start):
                    break
                chain.append(prev)
            # two items after a comma may be two clauses ("fell 5%, and 40% MFU"); three, or two joined by "and", are a list
            if len(chain) >= 2 or chain and "," not in self.norm[chain[0].end:last.start] and "،" not in self.norm[chain[0].end:last.start]:
                for prev in chain:
                    prev.quantity, prev.generic = last.quantity, False

    def parts_of_a_count(self) -> None:
        """"Of the 419 failures, 148 (30.1%) were GPU faults and 72 (17.2%) memory": the bare counts after a total of
        things in its sentence count the same things, and a percentage in brackets after one is its share of the total."""
        for total in self.figs:
            if total.quantity not in _PARTITIONED or total.generic or not _OF_THE.search(self.norm, max(0, total.start - 16), total.start):
                continue
            stop = _SENTENCE_STOP.search(self.norm, total.end)
            stop = stop.start() if stop else len(self.norm)
            for f in self.figs:
                if total.end < f.start < stop and f.quantity == "number" and not f.expression and f.value == int(f.value) \
                        and 0 < f.value < total.value and not _NOUN_AFTER_PART.match(self.norm, f.end):
                    f.quantity, f.generic = total.quantity, False
                    share = next((g for g in self.figs if g.unit == "%" and g.quantity == "percent"
                                  and _BRACKETED.fullmatch(self.norm[f.end:g.start])), None)
                    if share is not None:
                        share.quantity = "fraction"

    def per_device_batch(self) -> None:
        """"128 H100 GPUs ... batch size = 1": a batch far smaller than the chips the text names is each device's batch.

        A global batch holds at least one sequence per data-parallel rank, and model parallelism rarely spans more than
        64 chips (TP 8 x PP 8, whose pipeline also needs several micro-batches), so a global batch is at least chips / 64.
        """
        chips = max((f.value for f in self.figs if f.quantity == "n_chips" and not f.generic), default=0)
        for f in self.figs:
            if f.quantity != "global_batch_sequences" or _GLOBAL_WORD.search(self.norm, max(0, f.start - 30), f.start):
                continue
            if 0 < f.value * 64 <= chips:
                f.quantity = "local_batch_sequences"
            elif _EACH_CHIP_BEFORE.search(self.norm, self.sentence_start(f.start), f.start):
                f.quantity = "local_batch_sequences"  # "each GPU processes a batch of 16 sequences": one device's batch

    def of_peak(self) -> None:
        """"134.924 / 459 = 29.40%" with 459 a chip's peak: the numerator is FLOP/s achieved, the result utilisation."""
        exprs = [e for e in self.figs if e.expression and e.quantity == "expression" and "/" in self.norm[e.start:e.end]]
        if not exprs:
            return
        figs = sorted((f for f in self.figs if not f.expression), key=lambda f: f.start)
        starts = [f.start for f in figs]
        for e in exprs:
            inside = figs[bisect.bisect_left(starts, e.start):bisect.bisect_left(starts, e.end)]
            if len(inside) != 2 or inside[1].quantity != "peak_flop_per_s" or inside[0].quantity != "number" \
                    or "/" not in self.norm[inside[0].end:inside[1].start]:
                continue
            a, b = inside
            a.quantity, a.unit, a.scale, a.value, a.generic = "flop_per_s_per_chip", b.unit, b.scale, a.raw * b.scale, False
            for f in figs[bisect.bisect_left(starts, e.end):bisect.bisect_left(starts, e.end + 12)]:
                if f.role == "result" and f.quantity in ("percent", "number"):
                    f.quantity = "mfu" if _MFU_WORD.search(self.norm) else "utilization"
                    if f.unit is None:
                        f.value = f.raw / 100 if f.raw > 1 else f.raw
                    f.generic = False
