"""Issue 18: parallelism acronyms as engineers write them (tp 2, fsdp, dp/tp/pp, --cp 4), and their training senses."""

import pytest

from service.explain.pipeline import analyse


def found(text: str, lang: str = "en") -> dict[str, dict]:
    """The passage's terms by their display name."""
    return {t["term"]: t for t in analyse(text, lang).terms}


@pytest.mark.parametrize("text, terms", [
    ("With fsdp 4, tp 2 and sp enabled the loss diverges.", {"FSDP", "TP", "SP"}),  # degrees, then a list
    ("run it with --tp 4 --pp 2 and cp=2", {"TP", "PP", "CP"}),  # flags and key=value
    ("we use dp/tp/pp on the big runs", {"DP", "TP", "PP"}),  # a list of acronyms alone
    ("pp8 tp2 on 64 GPUs", {"PP", "TP"}),  # degrees written into the word
    ("sp: true\ntp: 8\n", {"SP", "TP"}),  # config keys
    ("step 200  tps: 100  mfu: 26.52%", {"MFU"}),  # a log line: mfu is no English word
    ("The tp_rank and ep_group are set per process.", {"TP", "EP"}),  # identifiers
    ("Tp=2 and Pp=4 were set in the launcher.", {"TP", "PP"}),  # mixed case
])
def test_lowercase_acronyms_match_where_the_context_marks_them(text, terms):
    got = found(text)
    assert terms <= set(got)
    assert all(got[t]["category"] in ("parallelism", "metric") for t in terms)


@pytest.mark.parametrize("text", [
    "See pp. 12-15 of the paper; it is discussed in ep. 3 of the podcast.",  # pages and an episode
    "I listened to ep 4 yesterday, it was long.",  # an episode number with nothing of the field around it
    "cp ckpt/model.pt /mnt/backup/ then restart the job",  # the shell command before a path
    "cp: cannot stat 'foo': No such file or directory",  # the shell command's error
    "The S&P index (sp 500) rose; it is up pp 12-15 over the year.",  # not a degree, a range
    "Turn up the volume: it is an mp3 on my dp list.",  # ordinary words
    "Training runs on 8 GPUs; first cp 2 files to the node.",  # a count of files, not a degree
])
def test_ordinary_words_stay_ordinary(text):
    got = found(text)
    assert not {"TP", "PP", "DP", "SP", "CP", "EP", "MP"} & set(got), got.keys()


def test_arabic_text_with_lowercase_acronyms():
    listed = found("فعّلنا fsdp و tp و sp فتباعدت الخسارة.", "ar")
    assert {"FSDP", "TP", "SP"} <= set(listed)
    assert listed["TP"]["expansion"] == "توازي الموتر"
    degrees = found("شغّلنا التدريب بقيم tp=2 و pp=4 على 64 شريحة.", "ar")
    assert {"TP", "PP"} <= set(degrees)
    assert not {"PP"} & set(found("راجع الصفحات pp. 12-15 من الورقة.", "ar"))


def test_context_parallelism_wins_over_checkpoint_in_a_parallel_training_text():
    # Without the training context the checkpoint cues (save, checkpoint, resume) would outnumber CP's one cue (TP).
    assert found("With TP and CP on, we save a checkpoint every 500 steps and resume after a crash.")["CP"]["expansion"] \
        == "context parallelism"
    # A degree settles it even beside checkpoint words: a checkpoint has no degree.
    assert found("We ran CP=2 and saved a checkpoint to resume and load later.")["CP"]["expansion"] \
        == "context parallelism across 2 chips"  # the sense, read out with the degree; no GPU named, so "chips" (round 84 P10)
    # A text only about saving keeps the checkpoint sense.
    assert found("We save a checkpoint every 500 steps and resume after a crash. The CP is 2 GB.")["CP"]["expansion"] \
        == "checkpoint"
    arabic = found("مع TP وCP نحفظ checkpoint كل 500 خطوة ونستأنف بعد التعطل.", "ar")
    assert arabic["CP"]["expansion"] == "توازي السياق"


def test_true_positive_only_outside_a_training_text():
    positive = found("Our classifier has 90 TP and 10 FP; precision and recall are high.")["TP"]
    assert positive["expansion"] == "true positive"
    assert "1909.08053" not in (positive["source"] or "")  # the Megatron paper is no source for a true positive
    assert found("With TP 4 and PP 2 the TP all-reduce stays inside NVLink; precision is bf16.")["TP"]["expansion"] \
        .startswith("tensor parallelism")  # read out with its degree where the text writes one ("across 4 GPUs")


def test_sp_beside_a_mesh_axis_or_ring_attention_is_the_sequence_axis():
    text = "The mesh has axes data, fsdp and sp; with ring attention over the sp axis each chip holds 8k tokens."
    sp = found(text)["SP"]
    assert "mesh axis" in sp["expansion"] and sp["source"] == "https://arxiv.org/abs/2310.01889"
    arabic = found("يقسم محور sp في شبكة الأجهزة التسلسل مع الانتباه الحلقي، و TP=4.", "ar")["SP"]
    assert "محور" in arabic["expansion"]
    # Megatron's sense stays where its own cues are.
    megatron = found("SP with TP in Megatron splits LayerNorm and dropout activations.")["SP"]
    assert megatron["expansion"] == "sequence parallelism" and "2205.05198" in megatron["source"]
    ulysses = found("DeepSpeed Ulysses SP uses all-to-all over attention heads for long sequences.")["SP"]
    assert "Ulysses" in ulysses["expansion"] and "2309.14509" in ulysses["source"]


def test_a_lowercase_acronym_asked_alone_and_in_a_context():
    from service.explain import glossary
    from service.mcp.tools import run_lookup

    assert glossary.lookup("tp")["expansion"] == "tensor parallelism"
    assert glossary.lookup("it") is None
    context = "With TP and CP on, we save a checkpoint every 500 steps and resume after a crash."
    assert run_lookup({"term": "CP", "context": context})["entries"][0]["expansion"] == "context parallelism"
    alone = "We save a checkpoint every 500 steps and resume after a crash; the CP is 2 GB."
    assert run_lookup({"term": "CP", "context": alone})["entries"][0]["expansion"] == "checkpoint"
