"""Configuration readers on small hand-made inputs: shell scripts, launch lines, YAML, TOML, JSON, overrides, and detection in a thread (issue 20)."""

import pytest

from service.configs import commandline, detect, reader, reading, shell, structured
from service.configs.detect import Block


def _read(text: str, form: str):
    return reader.read_block(Block(text, form, 1, text.count("\n") + 1))


SCRIPT = """#!/bin/bash
# a launch script as people write them
GPUS_PER_NODE=8
NNODES=${SLURM_NNODES:-2}
WORLD_SIZE=$(($GPUS_PER_NODE*$NNODES))
TP=4
export DTYPE="fp8"
DATA_PATH=$1

GPT_ARGS=(
    --tensor-model-parallel-size $TP   # inline comment
    --pipeline-model-parallel-size 2
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32
    --seq-length 4096 --micro-batch-size 1 --global-batch-size 256
)
if [[ "$DTYPE" == "fp8" ]]; then
    GPT_ARGS+=("--fp8-format hybrid")
else
    GPT_ARGS+=(--bf16)
fi
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES \\
    pretrain_gpt.py "${GPT_ARGS[@]}" \\
    --data-path $DATA_PATH --lr 3e-4
"""


def test_a_script_with_variables_arrays_branches_and_continuations():
    config = _read(SCRIPT, "shell")
    assert config.framework == "megatron-lm" and config.launcher == "torchrun" and config.program == "pretrain_gpt.py"
    assert config.value("--tensor-model-parallel-size") == 4  # $TP substituted, the comment dropped
    assert config.value("--nnodes") == 2  # ${SLURM_NNODES:-2}: the default where the environment does not say
    assert config.value("--fp8-format") == "hybrid" and not config.has("--bf16")  # the branch the test selects
    assert config.value("--lr") == 3e-4
    assert config.unresolved == ["$1"]  # the data path is an argument of the script: named, not guessed


def test_shell_arithmetic_defaults_and_command_substitution():
    reading_ = shell.read_script('A=3\nB=${A}0\nC=$(($A*$B+1))\nD=$(hostname)\nE=${UNSET:-"x y"}\necho $C $D $E\n')
    assert reading_.variables["B"] == "30" and reading_.variables["C"] == "91"
    words = reading_.commands[-1][1]
    assert words[:2] == ["echo", "91"] and shell.unresolved_in(words) == ["$D"]
    assert words[-2:] == ["x", "y"]


def test_case_statements_take_the_matching_branch():
    text = 'SIZE="8B"\ncase "${SIZE}" in\n  "800M")\n    TP=1\n    ;;\n  "8B")\n    TP=4\n    ;;\nesac\npython pretrain_gpt.py --tensor-model-parallel-size $TP --num-layers 2\n'
    assert _read(text, "shell").value("--tensor-model-parallel-size") == 4


def test_a_quoted_multi_line_string_is_one_variable():
    text = 'ARGS="\n  --tensor-model-parallel-size 2 \\\n  --micro-batch-size 4\n"\ntorchrun --nproc_per_node 8 pretrain_gpt.py $ARGS\n'
    config = _read(text, "shell")
    assert config.value("--tensor-model-parallel-size") == 2 and config.value("--micro-batch-size") == 4


def test_a_here_document_json_joins_the_script():
    text = ('MBS=2\ncat <<EOT > ds.json\n{\n  "train_micro_batch_size_per_gpu": $MBS,\n  "zero_optimization": {"stage": 1}\n}\nEOT\n'
            'deepspeed --num_gpus 8 pretrain_gpt.py --tensor-model-parallel-size 2 --deepspeed_config ds.json\n')
    config = _read(text, "shell")
    assert config.launcher == "deepspeed-launcher" and config.framework == "megatron-lm"
    assert config.value("train_micro_batch_size_per_gpu") == 2 and config.value("zero_optimization.stage") == 1


@pytest.mark.parametrize("words, launcher, options", [
    (["torchrun", "--nnodes=2", "--nproc-per-node", "8", "train.py", "--job.config_file", "x.toml"], "torchrun",
     [("--nnodes", 2), ("--nproc-per-node", 8)]),
    (["python", "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "4", "pretrain_gpt.py"], "torchrun",
     [("--standalone", True), ("--nproc_per_node", 4)]),
    (["deepspeed", "--num_gpus", "8", "--num_nodes", "2", "train.py", "--deepspeed", "ds.json"], "deepspeed-launcher",
     [("--num_gpus", 8), ("--num_nodes", 2)]),
    (["srun", "--nodes", "4", "python", "pretrain_gpt.py", "--num-layers", "2"], "srun", [("--nodes", 4)]),
])
def test_launcher_options_are_told_from_the_program_options(words, launcher, options):
    command = commandline.read_command(words)
    assert command["launcher"] == launcher and command["launcher_options"] == options


def test_program_options_take_lists_negative_numbers_and_overrides():
    command = commandline.read_command(["python", "-m", "MaxText.train", "base.yml", "per_device_batch_size=4",
                                        "ici_fsdp_parallelism=-1", "--rampup-batch-size", "16", "16", "5859375", "--x", "-1"])
    assert command["program"] == "MaxText.train" and command["positional"] == ["base.yml"]
    assert ("per_device_batch_size", 4) in command["options"] and ("ici_fsdp_parallelism", -1) in command["options"]
    assert ("--rampup-batch-size", [16, 16, 5859375]) in command["options"] and ("--x", -1) in command["options"]


def test_yaml_keys_are_dotted_with_their_lines_and_interpolations_resolved():
    settings = structured.read_yaml("trainer:\n  devices: 8\nmodel:\n  seq: 4096\n  encoder_seq_length: ${model.seq}\n")
    by_name = {s.name: s for s in settings}
    assert by_name["trainer.devices"].value == 8 and by_name["trainer.devices"].line == 2
    assert by_name["model.encoder_seq_length"].value == 4096


@pytest.mark.parametrize("text, form, line", [
    ("a: 1\nb: [1, 2\nc: 3\n", "yaml", 3),
    ("[training]\nsteps = 10\nseq_len = = 4\n", "toml", 3),
    ('{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": }\n}\n', "json", 3),
])
def test_a_file_that_does_not_parse_is_one_line_naming_the_line(text, form, line):
    with pytest.raises(structured.ConfigSyntaxError) as error:
        {"yaml": structured.read_yaml, "toml": structured.read_toml, "json": structured.read_json}[form](text)
    message = str(error.value)
    assert f"line {line}" in message and "\n" not in message


def test_json_with_comments_and_trailing_commas_is_read_and_says_so():
    config = _read('{\n  // ZeRO-2\n  "zero_optimization": {"stage": 2, /* offload */ "offload_optimizer": {"device": "cpu"},},\n'
                   '  "train_micro_batch_size_per_gpu": "auto",\n}\n', "json")
    assert config.framework == "deepspeed" and config.value("zero_optimization.stage") == 2
    assert any("comments" in note for note in config.notes)


def test_a_broken_file_of_a_known_framework_is_reported_not_dropped():
    config = _read('{\n  "zero_optimization": {"stage": 3,\n  "train_batch_size": 8\n', "json")
    assert config is not None and config.framework == "deepspeed" and len(config.notes) == 1 and "line" in config.notes[0]


def test_toml_with_an_unknown_section_keeps_the_rest():
    config = _read('[job]\ndump_folder = "./out"\n[parallelism]\ntensor_parallel_degree = 2\n[my_own_section]\nanswer = 42\n', "toml")
    assert config.framework == "torchtitan" and config.value("parallelism.tensor_parallel_degree") == 2
    assert config.value("my_own_section.answer") == 42


def test_a_fenced_config_in_a_thread_leaves_the_prose_to_explain():
    text = ("Why is my MFU so low on 16 H100s?\n\n```yaml\ndistributed_type: FSDP\nnum_processes: 16\nfsdp_config:\n"
            "  fsdp_sharding_strategy: FULL_SHARD\n```\n\nThe loss is fine though.\n")
    config, blocks = reading.find(text)
    assert config.framework == "accelerate" and blocks[0].fenced
    prose = reading.prose_of(text, blocks)
    assert "MFU" in prose and "loss is fine" in prose and "fsdp" not in prose.lower()


def test_pasted_lines_without_fences_and_an_inline_command_are_found():
    text = ("I launch it like this\n"
            "torchrun --nproc_per_node 8 pretrain_gpt.py \\\n  --tensor-model-parallel-size 2 \\\n  --pipeline-model-parallel-size 2\n"
            "and it hangs at start-up.\n")
    found = detect.blocks(text)
    assert [b.format for b in found] == ["shell"] and found[0].start_line == 2
    inline = detect.inline_commands("My command is `torchrun --nproc_per_node 8 train.py --tensor-model-parallel-size 2` today.")
    assert len(inline) == 1


def test_plain_prose_holds_no_configuration():
    assert reading.find("We trained with tensor parallelism of 8 and pipeline parallelism of 4 on 512 GPUs.")[0] is None


PIECES = ["--tensor-model-parallel-size", " 8", "\\\n", "$X", "${Y:-3}", "X=(", ")", '"', "'", "{", "}", "[training]", "a: b", "\n",
          "  - x", "torchrun", " --nnodes", "=", "1:4", "if [[ $A == b ]]; then", "fi", "case $X in", "esac", "cat <<EOT", "EOT",
          "```yaml\n", "```\n", "model.x=1 ", "ici_fsdp_parallelism=-1 ", "-1", "${multiply:2, ${.a}}", "zero_optimization:",
          "stage: 3", "$((1/0))", "${A[@]}", "#", "auto", "# comment\n"]


def test_any_mix_of_config_syntax_is_read_or_declined_never_raised():
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=40), st.sampled_from(["en", "ar"]))
    def check(parts, lang):
        found = reading.read("".join(parts), lang)
        assert found is None or (found["framework"] and isinstance(found["problems"], list))

    check()


def test_a_sentence_with_options_keeps_its_words_as_prose():
    text = "Help! We run --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2 on 16 H100s and get out of memory errors."
    config, blocks = reading.find(text)
    assert config.framework == "megatron-lm" and config.value("--pipeline-model-parallel-size") == 2
    # the options stay in the sentence as code, so its words still read as a sentence
    assert reading.prose_of(text, blocks) == ("Help! We run `--tensor-model-parallel-size 8` `--pipeline-model-parallel-size 2` "
                                              "on 16 H100s and get out of memory errors.")
    assert reading.read(text, "en")["world_size"] == 16  # stated in the sentence, not by a launcher


def test_a_sentence_after_a_short_command_is_prose_not_part_of_the_config():
    from service.configs import split

    prose, config = split("python3 train.py model=llama3_8b per_device_batch_size=8\n"
                          "We lowered the batch per device because the run hit OOM on v5e.", "en")
    assert config is not None and "We lowered the batch" in prose


def test_options_in_a_sentence_take_no_words_of_the_sentence_as_values():
    text = ("To avoid OOM with TP8 I used --recompute-granularity full, --recompute-method uniform and --distribute-saved-activations. "
            "May I ask why? With --tp-comm-overlap (I think --sequence-parallel is needed as well) it hangs.")
    config, blocks = reading.find(text)
    assert config.value("--recompute-granularity") == "full" and config.value("--recompute-method") == "uniform"
    assert config.value("--distribute-saved-activations") is True and config.value("--tp-comm-overlap") is True
    assert config.value("--sequence-parallel") is True
    prose = reading.prose_of(text, blocks)
    assert "`--distribute-saved-activations`. May I ask why?" in prose and "`--tp-comm-overlap` (I think" in prose
    assert "`--recompute-granularity full`, `--recompute-method uniform` and" in prose


def test_a_default_is_not_a_problem_when_the_options_are_quoted_in_a_sentence():
    # The sentence says TP8 in words; no option sets the tensor-parallel degree, so its default (1) proves nothing.
    said = reading.read("With TP8 and PP2 on our cluster we enable --sequence-parallel and --tp-comm-overlap, and it still hangs.", "en")
    assert not [p for p in said["problems"] if p["rule"] == "sequence_parallel_without_tp"]
    launched = reading.read("torchrun --nproc_per_node 8 pretrain_gpt.py --sequence-parallel --tp-comm-overlap", "en")
    assert [p for p in launched["problems"] if p["rule"] == "sequence_parallel_without_tp"]


def test_two_gpu_counts_in_the_prose_leave_the_world_size_unsaid():
    from service.configs import job

    # the README's run and the author's run: which count is this job's is not said
    assert job.stated_gpus("The README ran 70B on 768 GPUs; mine runs on 128 GPUs with --overlap-grad-reduce.") is None
    assert job.stated_gpus("We run --overlap-grad-reduce on 128 GPUs.") == 128


def test_options_the_prose_gives_to_another_framework_are_not_read_as_a_known_ones():
    from service.configs import reading

    # fairseq's flags, which Megatron-LM's catalog partly shares (--optimizer, --cpu-offload): no Megatron-LM reading
    text = ("FSDP is fully supported in fairseq via the following new arguments:\n"
            "--ddp-backend=fully_sharded: enables full sharding via FSDP\n"
            "--cpu-offload: offloads the optimizer state to CPU (combine with --optimizer=cpu_adam)\n")
    assert reading.find(text)[0] is None
    # prose that names no other framework keeps the reading, whatever everyday words it uses
    kept = reading.find("To accelerate training we pass --tensor-model-parallel-size 8 --pipeline-model-parallel-size 4.")[0]
    assert kept is not None and kept.framework == "megatron-lm"
