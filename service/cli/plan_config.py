"""`unjargon plan --from-config FILE`: the job a training configuration describes, its own layout scored, and the planner's."""

import argparse
import json

from service.cli.usage import UsageError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="unjargon plan --from-config",
                                     description="Plan the parallel layout of the job a training configuration describes "
                                                 "(Megatron-LM/NeMo scripts, Megatron-Bridge overrides, torchtitan TOML, DeepSpeed JSON, "
                                                 "MaxText YAML, accelerate YAML, torchrun and deepspeed lines).")
    parser.add_argument("--from-config", dest="file", required=True, metavar="FILE", help="the configuration file or script")
    parser.add_argument("--n-chips", dest="n_chips", type=int, metavar="N", help="GPUs or chips of the job, when the file does not say")
    parser.add_argument("--chip", help="the chip (h100, a100, tpu-v5p, ...), when the file does not say [default: H100; TPU v5p for MaxText]")
    parser.add_argument("--model", help="a catalog model (llama-3-70b, ...), when the file gives no architecture")
    parser.add_argument("--lang", default="en", help="language of the answer (en, ar, or one added in UNJARGON_LANGUAGES_DIR)")
    parser.add_argument("--json", action="store_true", help="print the config object (with evaluation and suggestion) as JSON")
    parser.error = lambda message: (_ for _ in ()).throw(UsageError(message))  # one line, exit 2
    return parser


def plan_from_config(argv: list[str]) -> int:
    """Read FILE, evaluate its layout and plan the same job; print the section (or --json)."""
    args = _parser().parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read --from-config {args.file}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"--from-config {args.file} is not UTF-8 text (invalid byte at position {exc.start})") from exc
    from service.i18n import languages

    if args.lang not in languages.codes():
        raise UsageError(f"--lang must be one of {', '.join(languages.codes())}, got {args.lang!r}")
    if args.n_chips is not None and args.n_chips < 1:
        raise UsageError(f"--n-chips must be at least 1, got {args.n_chips}")
    from service.configs import reading, render

    config, blocks = reading.find(text)
    if config is None:
        raise UsageError(f"--from-config {args.file}: no training configuration found (Megatron-LM, NeMo, Megatron-Bridge, "
                         "torchtitan, DeepSpeed, MaxText, accelerate, torchrun or deepspeed launcher)")
    given = {key: getattr(args, key) for key in ("n_chips", "chip", "model") if getattr(args, key)}
    found = reading.describe(config, text, args.lang, blocks, given=given)
    if found["unreadable"] and not config.settings:
        raise UsageError(f"--from-config {args.file}: {found['unreadable'][0]}")
    if found["world_size"] is None:
        raise UsageError(f"--from-config {args.file} does not say how many GPUs the job uses; give --n-chips N")
    if found["suggestion"] is None and found["evaluation"] is None:
        reason = (found["not_evaluated"] or found["questions"] or ["the job is incomplete"])[0]
        raise UsageError(f"--from-config {args.file}: cannot plan: {reason}" + ("" if found["model"] else "; give --model NAME"))
    if args.json:
        print(json.dumps(found, ensure_ascii=False, indent=2))
        return 0
    print(render.section(found, args.lang), end="")
    return 0
