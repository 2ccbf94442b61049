"""Issue 18: the terms section defines every term it lists; a tight budget lists fewer terms, generic words last."""

import json
import re

import pytest

from calculators.resources import data_dir
from service.explain import compose
from service.explain.compose import budget, explain_offline
from service.explain.definitions import brief_definition, generic_term_ids
from service.explain.salience import terms_cap
from service.i18n.messages import messages

# Written for these tests: a short post dense with acronyms, so the answer's word budget is tight.
DENSE = ("We train a 70B model on 1024 H100 GPUs with TP=8, PP=4 and DP=32, ZeRO-1, bf16 and FlashAttention, and reach "
         "40% MFU at 400 TFLOP/s per GPU; the all-reduce over InfiniBand overlaps with the backward pass, and each "
         "token costs 6N FLOPs.")
# A roomy one: few terms of its own (one), so the generic words it uses are listed after it.
ROOMY = "FSDP keeps only part of the weights on each GPU, so every token's forward pass must fetch them first."
# The same idea with three terms of its own: the everyday words are left out.
OWN_TERMS = "FSDP shards the weights across GPUs, so each token's forward pass all-gathers them first."


def terms_section(markdown: str, lang: str) -> str:
    heading = "## " + messages(lang)["headings"]["terms"]
    assert heading in markdown, markdown
    return re.split(r"\n## ", markdown.split(heading, 1)[1], maxsplit=1)[0].strip()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_tight_budget_lists_fewer_terms_each_defined(lang):
    answer = explain_offline(DENSE, lang)
    section = terms_section(answer["explanation"], lang)
    lines = section.splitlines()
    assert lines and all(line.startswith("- **") for line in lines), section  # never "**PP** (...), **DP** (...)."
    assert all(re.search(r"\*\*(?: \(.*?\))?: \S", line) for line in lines), section  # each has a definition
    assert "…" not in section and "..." not in section
    assert len(lines) < len(answer["terms"])  # fewer terms than the text uses, not all of them as bare names
    assert len(answer["explanation"].split()) <= budget(DENSE)


def test_the_most_central_terms_stay_when_some_are_dropped():
    section = terms_section(explain_offline(DENSE, "en")["explanation"], "en")
    shown = re.findall(r"^- \*\*(.+?)\*\*", section, flags=re.M)
    assert {"TP", "PP", "DP"} <= set(shown), shown
    assert "GPU" not in shown and "token" not in shown  # generic words are the first to go


def test_generic_words_come_last_and_in_their_brief_form():
    answer = explain_offline(ROOMY, "en")
    shown = re.findall(r"^- \*\*(.+?)\*\*", terms_section(answer["explanation"], "en"), flags=re.M)
    assert shown[0] == "FSDP", shown
    generic = generic_term_ids()
    kinds = [t["id"] in generic for t in sorted(answer["terms"], key=lambda t: shown.index(t["term"])
                                               if t["term"] in shown else len(shown)) if t["term"] in shown]
    assert kinds == sorted(kinds), shown  # no generic word before a term of art
    gpu = next(line for line in answer["explanation"].splitlines() if line.startswith("- **GPU**"))
    assert "which is exactly what training neural networks needs" not in gpu  # the glossary's comment clause is cut
    assert gpu.endswith("at the same time.")


def test_a_brief_definition_ends_at_a_clause_end_never_mid_fact():
    long = ("A chip first built to draw graphics that is very good at doing huge numbers of simple calculations at "
            "the same time, which is exactly what training neural networks needs.")
    assert brief_definition(long) == ("A chip first built to draw graphics that is very good at doing huge numbers of "
                                      "simple calculations at the same time.")
    short = "Google's own chip designed only for machine learning."
    assert brief_definition(short) == short  # short enough already
    no_end = ("A count of arithmetic operations on real numbers where each multiply and each add counts as one and "
              "where the total is what the six-N-D rule estimates")
    assert brief_definition(no_end) == no_end  # no clause end: whole, never "…"
    announced = ("The accelerator comes in two kinds: an air-cooled card for ordinary servers and a module for "
                 "liquid-cooled boards with fast links.")
    assert brief_definition(announced) == announced  # "two kinds:" announces the fact, so no cut there
    arabic = ("شريحة صممت في الأصل لرسم الصور، لكنها بارعة في إجراء عدد هائل من العمليات الحسابية البسيطة في وقت "
              "واحد، وهذا بالضبط ما يحتاجه تدريب الشبكات العصبية.")
    assert brief_definition(arabic).endswith("في وقت واحد.")


def test_the_generic_list_names_only_glossary_terms_with_a_reason():
    table = json.loads((data_dir() / "generic_terms.json").read_text(encoding="utf-8"))
    known = {t["id"] for path in (data_dir() / "glossary").glob("*.json")
             for t in json.loads(path.read_text(encoding="utf-8"))["terms"]}
    for group in table["groups"]:
        assert group["why"].strip()
        assert set(group["ids"]) <= known, set(group["ids"]) - known
    assert {"gpu", "token", "nvidia", "chip", "throughput"} <= generic_term_ids()
    assert not generic_term_ids() & {"pipeline-parallelism", "data-parallelism", "fsdp", "model-flops-utilization"}


def test_a_roomy_answer_keeps_its_first_sentences():
    answer = explain_offline(ROOMY, "en")
    fsdp = next(line for line in answer["explanation"].splitlines() if line.startswith("- **FSDP**"))
    entry = next(t for t in answer["terms"] if t["term"] == "FSDP")
    assert compose._first_sentence(entry["definition"]) in fsdp


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_brief_definition_keeps_the_figures_after_its_colon(lang):
    from service.explain import glossary

    entry = glossary.load().by_id["kimi-k2"]
    definition = entry["definition"] if lang == "en" else entry["ar"]["definition"]
    brief = brief_definition(compose._first_sentence(definition))
    assert ("thirty-two billion active" if lang == "en" else "اثنان وثلاثون مليارا نشطة") in brief
    assert len(brief.split()) < len(compose._first_sentence(definition).split())  # the rest, after ";", goes


def test_a_colon_cut_keeps_the_fact_after_it():
    # Sentences written for this test, in the glossary's style.
    whole = "A variant of the H100 made for one market under export rules: same cores but much lower link bandwidth."
    assert brief_definition(whole) == whole  # short enough: what follows the colon is the fact
    counted = ("A server design that a large company contributed to an open hardware project years ago: eight GPUs "
               "with their switch fabric, processors, power and networking in one chassis; later versions add more.")
    assert "eight GPUs" in brief_definition(counted) and "later versions" not in brief_definition(counted)
    heading = ("How a cloud names a slice: the version, a dash, and a size; the size counts cores on some "
               "versions and chips on others, so the same name can mean two sizes.")
    assert brief_definition(heading).startswith("How a cloud names a slice: the version, a dash, and a size")


def test_everyday_words_are_left_out_when_the_passage_has_terms_of_its_own():
    shown = re.findall(r"^- \*\*(.+?)\*\*", terms_section(explain_offline(OWN_TERMS, "en")["explanation"], "en"), flags=re.M)
    assert shown[0] == "FSDP" and {"sharding", "all-gather"} <= set(shown), shown
    assert not {"GPU", "token", "forward pass"} & set(shown), shown


def test_the_list_is_as_long_as_the_passage_warrants():
    # Written for this test: one short sentence naming many terms of the field.
    short = "TP, PP, DP, CP, EP, FSDP, ZeRO-1, SP, VPP and 1F1B on H100 with NVLink and InfiniBand."
    answer = explain_offline(short, "en")
    shown = re.findall(r"^- \*\*(.+?)\*\*", terms_section(answer["explanation"], "en"), flags=re.M)
    assert len(answer["terms"]) > terms_cap(short) == len(shown), shown  # the rest stay in the JSON terms
    assert terms_cap(" ".join(["word"] * 400)) > terms_cap(short)


def test_a_definition_that_announces_two_things_is_not_cut_before_them():
    # round 15: "TTFT (TTFT / TPOT): The two latencies of serving a language model." named nothing
    from service.explain.definitions import brief_definition
    long = ("The two latencies of serving a language model: TTFT is how long a user waits for the first token (the "
            "prompt's prefill), TPOT or inter-token latency is the time between each later token (decoding).")
    assert "TTFT is how long" in brief_definition(long)
    cut = ("A simple performance model that many engineers use every day: an operation takes at least the larger of its "
           "compute time and its memory time, whichever is longer on the chip.")
    assert brief_definition(cut) == "A simple performance model that many engineers use every day."
