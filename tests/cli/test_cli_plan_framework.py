"""`unjargon plan --framework`: only layouts the framework can run, said in the answer; an unknown name refused (issue 19)."""

from service.cli.main import main

JOB = ["plan", "--model", "llama-3-70b", "--chip", "h100", "--n-chips", "64", "--global-batch-tokens", "4M"]


def test_plan_with_a_framework_without_tensor_parallelism(capsys):
    assert main(JOB) == 0
    assert "TP " in capsys.readouterr().out.splitlines()[2]  # unrestricted: tensor parallelism is chosen
    assert main([*JOB, "--framework", "llm-foundry-0.4"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[2].startswith("Chosen layout: DP 64") and "TP " not in out and "PP " not in out
    assert "Only layouts llm-foundry 0.4 can run were searched" in out
    assert main([*JOB, "--framework", "llm-foundry-0.4", "--lang", "ar"]) == 0
    assert "بُحث فقط في التوزيعات التي يستطيع llm-foundry 0.4 تشغيلها" in capsys.readouterr().out


def test_plan_refuses_an_unknown_framework_naming_the_field_and_the_names(capsys):
    assert main([*JOB, "--framework", "colossalai"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("unjargon: error: framework: expected one of ") and "llm-foundry-0.4" in err and "megatron-lm" in err


def test_an_arabic_plan_counts_in_arabic(capsys):
    assert main([*JOB, "--lang", "ar"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "64 شريحة، 4 ملايين رمز" in header and "4M" not in header
