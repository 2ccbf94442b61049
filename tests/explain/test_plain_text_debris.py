"""Issue 18, readability: no debris in the answer's plain text (nested or self-repeating expansions, pasted words in
option names, broken reported speech, "lines 3-3", "2.1e12T"). Sentences written for these rules, not corpus text."""

from calculators.formatting import human
from service.configs import commandline, detect
from service.explain import reported, restate, term_display
from service.explain.pipeline import analyse


def plain(text: str, lang: str = "en") -> str:
    return restate.plain(analyse(text, lang))


# --- the terms section: an expansion said once, never nested, never restating the name

def test_an_expansion_with_its_own_gloss_is_not_nested_in_the_name_brackets():
    assert term_display.unnested("TFLOPS", "teraFLOP/s (trillion floating-point operations per second)") == "teraFLOP/s"
    assert term_display.unnested("VPP", "virtual (interleaved) pipeline parallelism") == "virtual pipeline parallelism"
    assert "(" not in term_display.unnested("X9", "widget standard (version 2 (draft))")


def test_an_expansion_that_repeats_the_name_is_left_out():
    assert term_display.unnested("throughput", "throughput in tokens per second (the rate of the whole job)") == ""
    assert term_display.unnested("latency", "latency") == ""
    assert term_display.unnested("rank", "process rank") == "process rank"  # a qualifier that gives the sense: kept
    assert term_display.unnested("B300", "NVIDIA B300 Tensor Core GPU") == "NVIDIA B300 Tensor Core GPU"  # says more: kept


def test_a_definition_does_not_restate_its_own_term():
    assert term_display.unrepeated_definition("goodput", "Here goodput is the share of time spent on useful steps.") \
        == "The share of time spent on useful steps."
    assert term_display.unrepeated_definition("RAM", "Here RAM means the host's memory.") == "The host's memory."
    kept = "Goodput is the share of time spent on useful steps."
    assert term_display.unrepeated_definition("goodput", kept) == kept  # no "here": the definition's own wording stays
    assert term_display.unrepeated_definition("الإنتاجية الفعلية", "الإنتاجية هنا هي نسبة الوقت المفيد.") == "نسبة الوقت المفيد."


def test_a_bold_name_with_its_own_gloss_shares_one_bracket_with_the_second():
    term = {"id": "x", "term": "activations", "expansion": "التنشيطات (النتائج الوسيطة)", "found_as": "activations",
            "category": "memory"}
    name, expansion = term_display.display(term, "ar")
    assert (name, expansion) == ("التنشيطات", "النتائج الوسيطة، activations")  # one bracket, the sense kept


# --- restated sentences: nothing pasted into a quote, a gloss or a compound

def test_an_abbreviation_the_text_already_spells_out_before_it_is_not_expanded_again():
    out = plain("The new model uses Grouped-Query Attention (GQA) to save memory.")
    assert "Grouped-Query Attention (GQA)" in out and "attention (GQA))" not in out


def test_nothing_is_pasted_inside_a_quoted_label():
    out = plain("The dashboard shows 'Step MFU': 0.41 for the small run.")
    assert "'Step MFU'" in out and "utilization (MFU)'" not in out


def test_an_abbreviation_heading_a_compound_noun_is_not_split_by_its_expansion():
    out = plain("Our MFU numbers dropped after the upgrade.")
    assert "MFU numbers" in out and "(MFU) numbers" not in out


def test_figures_written_with_a_comma_between_them_read_as_a_list():
    out = plain("We trained with TP4,PP2 on the new nodes.")
    assert ",a " not in out and ",t" not in out


# --- reported speech stays grammatical

def test_a_sentence_to_the_reader_is_not_spliced_after_that():
    said = reported.point("You also need to lower the learning rate.", "You also need to lower the learning rate.", "en", "authors")
    assert "that You" not in said and "that you also need" in said
    advice = reported.point("Combine it with data parallelism for larger batches.",
                            "Combine it with data parallelism for larger batches.", "en", "text")
    assert "that combine" not in advice and "advice is to combine" in advice


def test_a_question_with_an_opener_is_asked_without_it():
    question = "First of all, I was wondering how do you split the layers across the nodes?"
    asked = reported.point(question, question, "en", "author")
    assert "whether first" not in asked and asked.startswith("The author asks how")
    polite = "May I check if this matches your recipe?"
    assert reported.point(polite, polite, "en", "author") == "The author asks whether this matches the recipe"


def test_arabic_that_is_followed_by_a_noun_never_a_verb_or_a_preposition():
    for sentence in ("تم تدريب النموذج بدقة منخفضة.", "بسبب حجم النموذج، يحتاج التدريب إلى ذاكرة كبيرة.",
                     "تُشغّل هذه الشرائح معظم النماذج الكبيرة."):
        said = reported.point(sentence, sentence, "ar", "text")
        first = sentence.split()[0].rstrip("،")
        assert f"أنّ {first}" not in said and ("أنه" in said or "أنّ هذه الشرائح تُشغّل" in said), said
    noun = "الذاكرة أكبر من المتوقع."
    assert "أنّ الذاكرة" in reported.point(noun, noun, "ar", "text")


# --- options named in a sentence are prose, not a command; their values carry no prose

def test_a_sentence_naming_switches_is_not_a_command_line():
    assert detect.sentence_with_options("I also tried --fast-init and --pin-memory but nothing changed.")
    assert detect.sentence_with_options("When I enable --bucket-merge (as the docs say) it hangs.")
    assert not detect.sentence_with_options("We run --hidden-size 4096 --num-layers 32 on 64 GPUs and it works.")
    assert not detect.sentence_with_options("python train.py --hidden-size 4096 --num-layers 32")
    assert detect.sentence_with_options("Tip: when you pass `--fast-init` with `--pin-memory`, set `--workers 4` and keep it low.")
    assert not detect.sentence_with_options("args: --hidden-size 4096 --num-layers 32 --seq-len 2048")


def test_options_named_in_a_sentence_are_explained_as_terms():
    from service.explain import option_terms

    text = "Tip: when you pass `--overlap-grad-reduce` with `--overlap-param-gather`, set `--tensor-model-parallel-size 4` too."
    names = [item["term"] for item in option_terms.find(text, "en")]
    assert "--overlap-grad-reduce" in names and "--tensor-model-parallel-size" in names


def test_option_values_stop_at_prose_words_and_clause_ends():
    options = dict(commandline.read_command("train.py --fast-init and --mode eager, --layers 8 --pin-memory.".split())["options"])
    assert options == {"--fast-init": True, "--mode": "eager", "--layers": 8, "--pin-memory": True}
    assert dict(commandline.read_command("train.py --split 98,2,0 --name run.v2".split())["options"]) == \
        {"--split": "98,2,0", "--name": "run.v2"}


# --- numbers: an exponent is never followed by a count word

def test_very_large_counts_are_written_with_an_exponent_only():
    assert human(3.6e24, "count") == "3.6e24"
    assert human(2.5e12, "count") == "2.5T"
    assert human(999e12, "count") == "999T"


def test_an_inline_expansion_spells_its_abbreviation():
    assert restate.spells("MFU", "model FLOPs utilization") and restate.spells("FLOPs", "floating-point operations")
    assert restate.spells("ZeRO", "Zero Redundancy Optimizer") and restate.spells("DSV3", "DeepSeek-V3")
    assert not restate.spells("MLP", "feed-forward network")  # a sense, not the words the letters stand for
    assert not restate.spells("RAM", "host memory")


def test_a_short_time_keeps_a_unit_that_shows_it():
    from service.explain import gist_values

    assert gist_values._duration(1e-8, "en") == "10 ns" and gist_values._duration(2.5e-5, "en") == "25 µs"
    assert gist_values._duration(0.48, "en") == "480 ms"


def test_a_bullet_inside_a_line_starts_a_new_item():
    from service.explain import claims

    text = "Why it matters: • faster math • lower memory?"
    assert [text[a:b] for a, b in claims.sentences(text, [])] == ["Why it matters:", "faster math", "lower memory?"]


def test_a_sentence_opening_with_a_code_name_keeps_its_spelling():
    from service.explain import compose

    assert compose._sentence("fp8 halves the bytes") == "fp8 halves the bytes."
    assert compose._sentence("vLLM serves the model") == "vLLM serves the model."
    assert compose._sentence("the run slowed down") == "The run slowed down."


def test_a_format_saving_is_read_towards_the_narrower_format():
    from service.explain import compose

    answer = compose.explain_offline("Our FP8 recipe cut memory use by 35% compared with the BF16 baseline.", "en")
    line = next(ln for ln in answer["explanation"].splitlines() if "bytes per value" in ln)
    assert "bf16 -> fp8 is 2 -> 1 bytes per value, 50% less" in line and "-100%" not in line


def test_a_checked_result_is_shown_in_the_unit_the_text_wrote():
    from service.explain import compose

    answer = compose.explain_offline("Loading the 30B model on every rank needs 30*4*8 GB ~ 1TB of host memory per node.", "en")
    line = next(ln for ln in answer["explanation"].splitlines() if "calculation gives" in ln)
    assert "the calculation gives 960 GB" in line and "960B" not in line
    working = compose.explain_offline("With ZeRO-3 on 128 GPUs the states of a 40B model take 40e9 * 16 / 128 = 5 GB per GPU.", "en")
    assert "the text states 5 GB; the arithmetic gives 5 GB" in working["explanation"]


def test_a_heading_and_a_bare_request_are_not_spliced_after_that_or_whether():
    heading = "Recommended sharding layout for 16-512 chips with 32 experts."
    assert reported.point(heading, heading, "en", "author").startswith("The author writes about recommended sharding layout")
    assert reported.companion(heading, heading, "en", "author").startswith("They write about recommended sharding layout")
    assert reported.point(heading, heading, "en", "text").startswith("The text is about recommended sharding layout")
    request = "Any advice on placing the experts to keep traffic inside a node?"
    assert reported.point(request, request, "en", "author").startswith("The author asks for any advice on placing")


def test_an_indirect_question_puts_its_subject_before_the_verb():
    assert reported.indirect_question("Why is the step time so high on the new cluster?") == \
        "why the step time is so high on the new cluster"
    assert reported.indirect_question("How is the gradient reduced in fp32?") == "how the gradient is reduced in fp32"  # a passive: its participle ends the subject


def test_an_arabic_expansion_never_breaks_agreement_with_the_verb_before_it():
    out = plain("يوفر NVFP4 ذاكرة أقل بنسبة 50%.", "ar")
    assert "يوفر NVFP4" in out and "(NVFP4)" not in out
    assert "وحدة معالجة الموترات (TPU)" in plain("يستخدم النموذج TPU للتدريب.", "ar")  # not the verb's subject: expanded


def test_a_statement_with_a_check_tag_asks_whether_it_holds():
    question = "We measure 35% MFU on 256 chips, is that normal for this model?"
    assert reported.point(question, question, "en", "authors") == \
        "The authors ask whether this is normal for this model: they measure 35% MFU on 256 chips"


def test_a_gloss_inside_brackets_is_left_out_and_formulas_keep_theirs():
    assert term_display.flat_brackets("partial sums are combined (usually by a reduce-scatter (RS)) in each layer", "en") == \
        "partial sums are combined (usually by a reduce-scatter) in each layer"
    assert term_display.flat_brackets("تُجمع التدرجات (عادة بعملية الاختزال الشامل (all-reduce)) ثم", "ar") == \
        "تُجمع التدرجات (عادة بعملية الاختزال الشامل) ثم"
    formula = "the bubble is (p - 1) / (m + (p - 1)) of the step"
    assert term_display.flat_brackets(formula, "en") == formula


def test_a_negative_instruction_is_advice_not_to():
    advice = "Don't mix the two schedules unless memory is short."
    assert reported.point(advice, advice, "en", "text") == "The text's advice is not to mix the two schedules unless memory is short."
    never = "Never run the collective across racks."
    assert reported.companion(never, never, "en", "author") == "Their advice is never to run the collective across racks."


def test_a_request_to_explain_asks_the_embedded_question():
    question = "Could someone explain why my 3B model stalls at 40% MFU?"
    assert reported.point(question, question, "en", "author") == "The author asks why their 3B model stalls at 40% MFU"


def test_a_figure_reading_does_not_repeat_the_words_the_text_says_after_it():
    out = plain("Our 13B run only gets 3k tokens/s per GPU on the old nodes.")
    assert "per GPU per GPU" not in out and "GPU GPU" not in out


def test_a_perception_verb_with_an_object_is_not_dropped_from_a_clause():
    from service.explain import synthesis

    assert synthesis.compressed("We see 30% of the step in the all-gather on 16 nodes.", "en").startswith("We see 30%")
    assert synthesis.compressed("We see that the all-gather takes 30% of the step.", "en").startswith("The all-gather takes")


def test_an_acronym_keeps_the_words_it_stands_for_and_loses_a_trailing_hyphen():
    assert term_display.unnested("ZeRO", "Zero Redundancy Optimizer") == "Zero Redundancy Optimizer"
    term = {"id": "x", "term": "ZeRO", "expansion": "Zero Redundancy Optimizer", "found_as": "ZeRO-", "category": "memory"}
    assert term_display.display(term, "en") == ("ZeRO", "Zero Redundancy Optimizer")


def test_a_name_that_looks_like_a_verb_is_no_instruction():
    said = "Switch layers route each token to one expert."
    assert "advice" not in reported.companion(said, said, "en", "text")


def test_a_definition_the_opening_already_gives_is_not_listed_again():
    from service.explain import compose

    section = "- **Foo**: A library that trains large models on many chips at once.\n- **Bar**: A chip."
    gist = "The text explains Foo: A library that trains large models on many chips at once."
    assert term_display.not_said_in(section, gist) == "- **Bar**: A chip."


def test_a_term_read_inside_config_syntax_is_named_by_its_entry():
    term = {"id": "zero-3", "term": "ZeRO-3", "expansion": "full sharding", "found_as": 'zero_optimization": {"stage": 3',
            "category": "memory"}
    assert term_display.display(term, "en")[0] == "ZeRO-3"


def test_a_configuration_with_no_layout_read_shows_no_empty_layout_line():
    from service.configs import render

    config = {"framework": "maxtext", "lines": (2, 4), "layout": {}, "_prose": True, "problems": [], "options": []}
    section = render.section(config, "en")
    assert "This is a MaxText configuration (lines 2-4 of the text)." in section and "**Layout:**" not in section
    with_degrees = render.section({**config, "layout": {"tp_degree": 4}}, "en")
    assert "**Layout:** TP 4." in with_degrees


def test_an_english_word_written_in_arabic_inside_brackets_gets_no_nested_gloss():
    from service.i18n import arabic_style

    out = arabic_style.polish("تنخفض الحركة (بعد all-gather في كل طبقة) ثم نكرر all-gather مرة أخرى.")
    assert "(بعد التجميع الشامل في كل طبقة)" in out and "ثم نكرر التجميع الشامل (all-gather)" in out


def test_nothing_is_expanded_inside_the_text_s_own_brackets():
    out = plain("One replica spans 16 chips (using 70 GB on each GPU) in our run.")
    assert "(using 70 GB on each GPU)" in out and "(GPU))" not in out


def test_an_option_the_configuration_section_explains_is_not_listed_again():
    markdown = "## In short\n\nText.\n\n## The terms\n\n- **--foo** (a setting): Does foo.\n\n## The configuration\n- `--foo`: Does foo.\n"
    out = term_display.without_lines_for({"--foo"}, markdown)
    assert "- **--foo**" not in out and "## The terms" not in out and "- `--foo`: Does foo." in out
    assert term_display.without_lines_for(set(), markdown) == markdown
