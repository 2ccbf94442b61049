"""A sentence followed by "Am I correct?" is what the author asks about: the gist says they ask whether it holds."""

from service.explain import question_target, reported
from service.explain.compose import explain_offline


def gist_of(text: str, lang: str = "en") -> list[dict]:
    return explain_offline(text, lang)["gist"]


def test_check_questions_are_recognised_and_real_questions_are_not():
    for q in ("Am I correct?", "Is my understanding right?", "Is this correct?", "Right?", "Does that sound right?"):
        assert question_target.is_check_question(q, "en"), q
    assert not question_target.is_check_question("Is this the right way to shard a 70B model across 4 nodes?", "en")
    assert question_target.is_check_question("هل هذا صحيح؟", "ar") and question_target.is_check_question("هل أنا محق؟", "ar")


def test_the_claim_checked_by_the_author_is_the_gist_as_a_question():
    gist = gist_of("The team trains a 13B model on 128 H100 GPUs at 300 sequences per second with a global batch of 1024. "
                   "So it means each step takes about 3.4 s. Am I correct?")
    # stop 65: "whether this is right: X", not "whether they are right that X", which round 100 P15's reader found false
    # where "Is it right in training of qwen2.5-vl?" asks whether what they see is normal
    assert gist[0]["text"] == "The author asks whether this is right: each step takes about 3.4 s"
    assert 2 in gist[0]["from"]  # the question is one of the sentences restated


def test_the_arabic_gist_asks_the_same_and_drops_the_so():
    gist = gist_of("ندرب نموذجًا من 7 مليارات معامل على 64 شريحة. إذن تستغرق كل خطوة 3 ثوانٍ تقريبًا. هل هذا صحيح؟", "ar")
    assert gist[0]["text"].startswith("يسأل الكاتب هل هو محق في") and "إذن" not in gist[0]["text"]
    assert "3 ثوانٍ" in gist[0]["text"]


def test_a_question_under_a_condition_is_asked_indirectly_with_its_condition_kept():
    asked = reported.indirect_question("For example, if we train on 64 GPUs, so does a 1B model need FSDP at all?")
    assert asked == "whether a 1B model needs FSDP at all, if we train on 64 GPUs"
    assert reported.indirect_question("If we use TP=8, is the all-reduce the bottleneck?") == \
        "whether the all-reduce is the bottleneck, if we use TP=8"


def test_what_the_author_would_like_to_know_is_what_is_asked_not_their_situation():
    # a round-9 reader: "asks whether they are working on a survey" for "I am working on a survey and would be
    # interested to know the total training compute (FLOPs) of RWKV-14B?"
    asked = reported.indirect_question("I am working on a survey and would be interested to know the total training compute of RWKV-14B?")
    assert asked == "for the total training compute of RWKV-14B"


def test_a_statement_then_a_question_is_quoted_not_turned_into_whether():
    # "Zero_stage=1 could reduce the memory cost, but how come it increases the performance?" asserts the first part
    assert reported.indirect_question("Zero_stage=1 could reduce the memory cost, but how come it increases the performance?") is None
    assert reported.indirect_question("If we use TP=8, is the all-reduce the bottleneck?") == "whether the all-reduce is the bottleneck, if we use TP=8"
