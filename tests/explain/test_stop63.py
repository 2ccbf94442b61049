"""Stop 63's rules, each on sentences written for the test in the shape of the passage that showed the fault."""

from service.explain import gist_side, question_target
from service.explain.compose import explain_offline


def gist_text(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


def test_what_the_next_post_covers_is_a_pointer_not_the_point():
    # round 76's checkpointing post ended "The next post moves to ZeRO, where ..." and the gist said only that
    assert gist_side.pointer("The next post moves to ZeRO, where memory is saved by sharding optimizer state instead.")
    assert gist_side.pointer("In the next part we cover pipeline schedules.")
    assert not gist_side.pointer("The next step all-gathers the weights of the following layer.")
    text = ("Offloading moves optimizer state to host memory. If PCIe bandwidth is the scarce resource, offloading will "
            "slow every step, so it is the wrong trade-off there. Use it only when GPU memory is the hard limit. The next "
            "post moves to ZeRO, where the optimizer state is sharded across data-parallel ranks instead of offloaded.")
    assert "next post" not in gist_text(text)


def test_a_question_put_to_a_named_participant_is_not_put_to_the_reader():
    # round 76's Megatron thread: "@deepakn94 Do you remember why interleaved has the * 2?" was said as "The authors ask
    # whether you remember why ...", a question to the reader
    text = ("why is the warmup count different here?\n@alice-dev Do you remember why the interleaved schedule multiplies "
            "the warmup by 2?\nThe warmup microbatches fill the pipeline so that every stage is busy in the steady state.")
    said = gist_text(text)
    assert "whether you remember" not in said
    assert question_target.addressee("Do you remember why the interleaved schedule multiplies the warmup by 2?", text) == "@alice-dev"


def test_a_question_to_a_named_participant_names_them():
    assert question_target.addressee("Hi @bob , can you share more details about your cluster?", "") == "@bob"
    assert question_target.addressee("@bob what is the purpose of this diff?", "") is None  # no "you": whoever answers
    assert question_target.addressee("Can you share your launch script?", "Can you share your launch script?") is None
    said = gist_text("@carol Could you explain why your run keeps the pipeline degree at 8 on 512 GPUs?")
    assert said.startswith("One participant asks @carol: Could you explain why your run keeps"), said


def test_a_maintainers_question_is_not_the_reporters():
    # round 76's InternLM thread: the reporter's "only got 90+ tflops" was joined to the maintainer's "Hi @x, can you
    # provide more details about your platform?" as one author's words
    text = ("I run the training script, but only get 95 TFLOPS per GPU.\nHi @dave-k , can you provide more details about "
            "your platform? On our cluster each node has 8 GPUs on NVLink. The main bottleneck is intra-node traffic over PCIe.")
    said = gist_text(text)
    assert "95 TFLOPS" in said and "asks for more details" not in said and "Can you provide" not in said, said
