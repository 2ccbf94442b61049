"""Stage 4: for each claim with numbers, the checkers that check it with the text's own figures, their results applied.

The public core (inputs from figures, running a calculator, `needs_more`) is core.py; each checker lives in a
module of its own and returns a Result (or None when the claim is not its kind); only check_claims changes a claim.
"""

import re

from service.explain.checks import arithmetic, names, pp_necessity, product_meaning
from service.explain.checks.bandwidth import bits_and_bytes, bus_bandwidth, collective_time
from service.explain.checks.batch_per_chip import batch_per_chip
from service.explain.checks.bubble import bubble
from service.explain.checks.bracketed_working import bracketed_working
from service.explain.checks.capacity import setup_memory
from service.explain.checks.cluster import machines_times_chips
from service.explain.checks.parts import parts_sum
from service.explain.checks.restated_unit import restated_unit
from service.explain.checks.comparison import comparison
from service.explain.checks.directions import directions, line_rate, line_rate_total
from service.explain.checks.core import Result, discard
from service.explain.checks.decode_floor import decode_floor, prefill_floor, rate_of_time
from service.explain.checks.flops import training_flops
from service.explain.checks.layout import layout
from service.explain.checks.memory import format_factor, memory, precision_change
from service.explain.checks.open_expression import open_expression
from service.explain.checks.active_share import active_share
from service.explain.checks.bandwidth_share import achieved_bandwidth
from service.explain.checks.baseline_rows import baseline_rows
from service.explain.checks.table_rows import table_rows
from service.explain.checks.percent_before import percent_before
from service.explain.checks.mfu import achieved_rate, mfu
from service.explain.checks.pin_bandwidth import pin_bandwidth
from service.explain.checks.peak import rebased_mfu, share_of_peak, sparse_denominator, sparsity_peak
from service.explain.checks.products import bits_to_bytes, experts_per_chip, flops_per_token, mesh, implied_mfu, microbatches, per_chip_total, stated_product
from service.explain.checks.per_unit_total import per_unit_total
from service.explain.checks.change_elsewhere import change_elsewhere
from service.explain.checks.stated_peak_share import stated_peak_share
from service.explain.checks.share_of_stated import share_of_stated
from service.explain.checks.column_relation import column_relation
from service.explain.checks.count_total import add_claims as count_total_claims, count_total
from service.explain.checks.spread_total import spread_total
from service.explain.checks.repeated_cost import repeated_cost
from service.explain.checks.gain_row import gain_row
from service.explain.checks.hours_from_flops import hours_from_flops
from service.explain.checks.line_share import line_share
from service.explain.checks.anaphoric_comparison import anaphoric_comparison
from service.explain.checks.chip_hours import chip_hours
from service.explain.checks.units_price import units_price
from service.explain.checks.bracketed_change import bracketed_change
from service.explain.checks.bracketed_factor import bracketed_factor
from service.explain.checks.rate_period import rate_period
from service.explain.checks.degrees import layers_per_chunk
from service.explain.checks.complement_share import complement_share
from service.explain.checks.composition import composition
from service.explain.checks.labelled_product import labelled_product
from service.explain.checks.block_scale import block_scale
from service.explain.checks.per_rank_states import per_rank_states
from service.explain.checks.state_list import state_list
from service.explain.checks.cp_share import cp_share
from service.explain.checks.unit_slip import unit_slip
from service.explain.checks.replicas import replicas
from service.explain.checks.roofline import roofline
from service.explain.checks.scaled import scaled_factor
from service.explain.checks.unit_cost import unit_cost
from service.explain.checks.rows import row_gain
from service.explain.checks.table_words import table_words
from service.explain.checks.factor_before import factor_before
from service.explain.checks.factor_ahead import factor_ahead
from service.explain.checks.compute_ceiling import compute_ceiling
from service.explain.checks.share_amount import share_of_amount
from service.explain.checks.introduced_factor import introduced_factor
from service.explain.checks.named_rows import named_rows
from service.explain.checks.named_baseline import named_baseline
from service.explain.checks.more_and_less import more_and_less
from service.explain.checks.majority import majority
from service.explain.checks.checkpoint_interval import checkpoint_interval
from service.explain.checks.ulysses_heads import add_claims as ulysses_claims, ulysses_heads
from service.explain.checks.row_peak import row_peak
from service.explain.checks.expert_choices import expert_choices
from service.explain.checks.bytes_per_param import bytes_per_param, per_param_total
from service.explain.checks.slice_memory import slice_memory
from service.explain.checks.share_of_whole import share_of_whole
from service.explain.checks.shares import change_across, scale_words, share_of_total, stated_factor
from service.explain.checks.difference import stated_difference
from service.explain.checks.states_fit import states_fit
from service.explain.checks.steps_time import steps_time, tokens_time
from service.explain.checks.scaling import scaling_efficiency
from service.explain.checks.token_budget import token_budget
from service.explain.checks.tokens_per_param import tokens_per_param
from service.explain.checks.added_share import added_share
from service.explain.checks.chips_needed import chips_needed
from service.explain.checks.cluster_cost import cluster_cost
from service.explain.checks.token_price import token_price
from service.explain.checks.failure_interval import failure_interval, fleet_interval, fleet_scaling
from service.explain.checks.point_difference import point_difference
from service.explain.checks.sized_rows import sized_rows
from service.explain.checks.transfer_time import transfer_needed, implied_rate, transfer_time
from service.explain.checks.kv_cache import kv_every_head, kv_per_token
from service.explain.checks.weights_fit import weights_fit
from service.explain.checks.weights_memory import weights_need, weights_on_card, weights_pairs
from service.explain.checks.training_time import computation, hours_over_chips, rate_from_chip_hours, step_time, training_time
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# a sentence whose arithmetic is the example of another claim (an overflow, a cause, an error): only the sums are checked
_BEYOND = re.compile(r"\b(?:overflow\w*|underflow\w*|caus\w*|because|leads? to|results? in|error\w*|fails?|problem\w*|crash\w*|NaN)\b"
                     r"|يسبب|تسبب|يؤدي|لأن|خطأ|مشكلة|فيض", re.I)
PP_FRAMES = ("pp_only_when_dp_bound", "pp_not_needed", "fast_links_no_pp", "dp_comms_bound", "pp_needed")
# In order: the first that reaches a verdict other than "explained" ends the claim's checks.
CHECKERS = (restated_unit, computation, more_and_less, majority, bracketed_working, labelled_product, block_scale, hours_from_flops, rate_from_chip_hours, bubble, implied_mfu, sparse_denominator, achieved_rate, achieved_bandwidth, rebased_mfu, sparsity_peak, mfu, hours_over_chips, step_time, steps_time, tokens_time, token_budget, training_time, per_chip_total, per_unit_total, spread_total, repeated_cost, anaphoric_comparison, per_rank_states, state_list, cp_share,
            microbatches, batch_per_chip, machines_times_chips, units_price, cluster_cost, share_of_total, share_of_amount, complement_share, composition, bracketed_change, bracketed_factor, share_of_whole, parts_sum, stated_difference, point_difference, bus_bandwidth, collective_time, bits_and_bytes, line_share, bits_to_bytes, directions, line_rate, line_rate_total, pin_bandwidth, precision_change, format_factor, stated_product, setup_memory, weights_pairs, weights_need, per_param_total, weights_fit, states_fit, chips_needed, memory, weights_on_card, decode_floor, compute_ceiling, prefill_floor, rate_of_time, transfer_time, implied_rate, transfer_needed, added_share, failure_interval, checkpoint_interval, fleet_interval, fleet_scaling, kv_per_token, kv_every_head, roofline,
            layout, layers_per_chunk, training_flops, mesh, replicas, experts_per_chip, ulysses_heads, flops_per_token, share_of_stated, share_of_peak, introduced_factor, row_gain, gain_row, baseline_rows, table_rows, named_rows, sized_rows, named_baseline, row_peak, expert_choices, stated_factor, factor_before, factor_ahead, percent_before, table_words, change_across, scaling_efficiency, comparison, scaled_factor, unit_cost, bytes_per_param, names.slice_size, slice_memory,
            open_expression, active_share, tokens_per_param, rate_period, token_price, count_total, change_elsewhere, stated_peak_share, column_relation, chip_hours)  # chip-hours only where nothing else was worked out


def _apply(claim: Claim, result: Result) -> None:
    """A checker's result on its claim: its calculations added, its verdict and reason set where it gives them."""
    computed_before = bool(claim.calculations) and claim.verdict == "explained"
    claim.calculations.extend(result.calculations)
    if result.verdict is not None:
        claim.verdict = result.verdict
    if result.why is not None:
        # a result that only computes adds its figure to what an earlier check said; a verdict's reason replaces it,
        # except the words of an earlier calculation, which stays shown (its working is never left without its words)
        keep = result.verdict is None and claim.why and result.why not in claim.why
        kept = result.verdict is not None and computed_before and claim.why and claim.why not in result.why
        claim.why = f"{claim.why}; {result.why}" if keep else f"{result.why}; {claim.why}" if kept else result.why


def check_claim(doc: Document, claim: Claim) -> None:
    """Run the checkers a claim calls for, in order, and set its calculations, verdict and why from their results."""
    own = arithmetic.check(doc, claim)
    if own is not None:
        _apply(claim, own)
    elif claim.frame in PP_FRAMES:
        result = pp_necessity.check(doc, claim)
        if result is not None:
            claim.calculations = list(result.calculations)
            claim.verdict, claim.why = result.verdict, result.why
        return  # with checks of its own numbers, a frame's general check would only add defaults
    claim.verdict, claim.why = "explained", ""
    rebased = False
    wanting = None  # a check that found nothing but what it would need: said only if no later check finds something
    for checker in CHECKERS:
        if own is not None and checker is computation:
            continue  # the written arithmetic is already redone
        if rebased and checker in (achieved_rate, mfu, share_of_peak):
            continue  # "480 / 1979": the share against the dense peak is said; an MFU verdict on it would say it twice, opposed
        result = checker(doc, claim)
        if result is None:
            continue
        rebased = rebased or checker is sparse_denominator
        if result.verdict == "needs_more" and claim.calculations and claim.why:
            # an earlier check already found something with the text's figures; what another check would still need
            # (or a reading it doubts) is not said over it
            for index in sorted(result.calculations, reverse=True):
                discard(doc, index)
            continue
        if result.verdict == "needs_more" and not result.calculations:
            wanting = wanting or result  # "we would need the model size": a later check may still work with what is given
            continue
        _apply(claim, result)
        if claim.verdict != "explained":
            break
    if wanting is not None and not claim.calculations and claim.verdict == "explained":
        _apply(claim, wanting)
    slip = unit_slip(doc, claim)
    if slip is not None and claim.verdict in ("explained", "consistent"):  # "8170GB" among sizes of 8 GB: the doubt is said
        claim.verdict, claim.why = "needs_more", "; ".join(w for w in (slip.why, claim.why) if w)  # first, the rest kept
    scaled = scale_words(doc, claim)
    if scaled is not None:  # '42.5 exaflops, i.e. a million trillion': a statement of its own beside the figure's other checks
        claim.calculations.extend(scaled.calculations)
        outcome = arithmetic.Outcome()
        outcome.add(scaled.verdict, scaled.why)
        if claim.why:
            outcome.add(claim.verdict, claim.why)
        combined = outcome.result()
        claim.verdict, claim.why = combined.verdict, combined.why
    if own is not None:  # both kinds of check speak; an inconsistency is said first
        outcome = arithmetic.Outcome()
        outcome.add(own.verdict, own.why)
        if claim.why:
            outcome.add(claim.verdict, claim.why)
        combined = outcome.result()
        # the same finding from both kinds of check ("the text says 7.2e23 FLOPs ...") is said once
        claim.verdict, claim.why = combined.verdict, "; ".join(dict.fromkeys(combined.why.split("; ")))
    claim.calculations = list(dict.fromkeys(claim.calculations))
    if own is not None and claim.verdict == "consistent" and _BEYOND.search(claim.quote) \
            and all(doc.calculations[i]["calculator"] == "arithmetic" for i in claim.calculations):
        # "255*255=65025 ... you got yourself an overflow": the sums hold, but the overflow is not what they check
        worked = "; ".join(f"{doc.calculations[i]['inputs']['expression']} = {doc.calculations[i]['outputs']['value']:,.6g}" for i in claim.calculations)
        claim.verdict, claim.why = "explained", messages(doc.lang)["verdicts"]["arithmetic_holds"].format(working=worked)
        return
    said = product_meaning.meaning(doc, claim) if claim.verdict == "consistent" else None
    if said:  # "why 384 (12*2*16)?": what the product is, not only that it is right
        claim.why = f"{claim.why}; {said}" if claim.why else said


def _finish(doc: Document, claim: Claim) -> None:
    """A why for every claim (an explained one says so in words) and its confidence from its calculations' inputs."""
    claim.placeholder_why = not claim.why
    if doc.lang == "ar":  # reasons joined by the checkers take the Arabic semicolon
        claim.why = claim.why.replace("; ", "؛ ")
    if not claim.why:
        words = messages(doc.lang)["verdicts"]
        kind = next((k for k in ("question", "requirement", "cause", "comparison") if k in claim.kinds), "default")
        if any(f.quantity not in ("number", "expression") for f in claim.figures):
            kind = "figures"
        claim.why = words[f"words_{kind}"]
    sources = [s.get("source") for i in claim.calculations for name, s in doc.calculations[i]["input_sources"].items()
               if not s.get("calculator_default")]
    claim.confidence = "assumed" if "assumed" in sources else "derived" if {"derived", "catalog"} & set(sources) else "text"


def check_claims(doc: Document) -> None:
    """Fill doc.calculations and each claim's calculations, verdict and why."""
    count_total_claims(doc)
    ulysses_claims(doc)
    for claim in doc.claims:
        check_claim(doc, claim)
        _finish(doc, claim)
    _without_repeated_pairs(doc)
    for result in doc.calculations:
        result.pop("_key", None)
    # a product name the catalog contradicts ("H200 Blackwell") is corrected once, as the answer's other corrections are
    written = {c.get("as") for c in doc.corrections}
    doc.corrections.extend(c for c in names.contradicting_names(doc.text, doc.lang) if c["as"] not in written)


def _without_repeated_pairs(doc: Document) -> None:
    """A table row's ratio against another row ("13554.221 is 128.7% of 10530.614") is dropped where a sentence's stated
    change is judged on the same two figures ("22.3% lower in output throughput than BF16"): the judged one says it."""
    def pair(index: int) -> frozenset | None:
        result = doc.calculations[index]
        inputs = result.get("inputs") or {}
        return frozenset({round(inputs["before"], 9), round(inputs["after"], 9)}) if result.get("calculator") == "ratio" and "before" in inputs else None
    judged = {pair(i) for c in doc.claims if c.verdict in ("consistent", "inconsistent") for i in c.calculations} - {None}
    for claim in doc.claims:
        if claim.verdict == "explained" and claim.calculations and all(pair(i) in judged for i in claim.calculations):
            claim.calculations, claim.why = [], ""
            _finish(doc, claim)
