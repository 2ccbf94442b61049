"""`unjargon calc`: run a calculator from the terminal, one result or a table across chips and models."""

import argparse
import json

from service.cli.usage import UsageError


def calc_command(argv: list[str]) -> int:
    """`unjargon calc [NAME] [--field value ...] [--json] [--input JSON]`."""
    import calculators

    if not argv or argv[0] in ("-h", "--help"):
        print("Calculators (unjargon calc NAME --help for the fields):\n")
        for name in calculators.names():
            print(f"  {name:<20} {calculators.summary(name)}")
        return 0
    name = argv[0]
    variants, as_json = read_inputs(name, argv[1:])
    results = [calculators.run(name, variant) for variant in variants]
    if as_json:
        payload = calculators.jsonable(results[0] if len(results) == 1 else results)
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    elif len(results) == 1:
        _print_result(results[0])
    else:
        _print_table(results)
    return 0


def read_inputs(name: str, argv: list[str], prog: str | None = None) -> tuple[list[dict], bool]:
    """A calculator's inputs from `--field value` options and --input JSON: one set per chip and model of a
    comma list, and whether --json was asked for."""
    import calculators

    calculator = calculators.get(name)
    parser = _calc_parser(calculator, prog)
    args = parser.parse_args(argv)
    inputs = {}
    if args.input:
        try:
            inputs = json.loads(args.input)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--input is not valid JSON: {exc.msg} at position {exc.pos}") from exc
        if not isinstance(inputs, dict):
            raise UsageError("--input must be a JSON object of field values")
    for field_name in calculator.accepted():
        value = getattr(args, field_name, None)
        if value is not None:
            inputs[field_name] = value
    return calculators.variants(inputs), args.json


def _calc_parser(calculator, prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog or f"unjargon calc {calculator.name}", description=calculator.summary,
                                     epilog="Numbers accept units: 900GB/s, 70B, 4M, 1.2e15, 16 GiB, 46%. Sources: " + "; ".join(calculator.sources))
    for spec in calculator.fields:
        default = "" if spec.required else f" [default: {spec.default:g}]" if isinstance(spec.default, float) else f" [default: {spec.default}]" if spec.default is not None else " [optional]"
        parser.add_argument("--" + spec.name.replace("_", "-"), dest=spec.name, metavar="VALUE",
                            help=f"{spec.doc}; {spec.describe_unit()}{default}".replace("%", "%%"))  # argparse formats help with %
    if calculator.takes_chip:
        parser.add_argument("--chip", help="hardware name (h100, tpu-v5p, gb200-nvl72, ...); a comma list compares several")
    if calculator.takes_model:
        parser.add_argument("--model", help="model name or alias (K2, DSV3, llama-3-70b, ...); a comma list compares several")
    parser.add_argument("--input", help="all inputs as a JSON object")
    parser.add_argument("--json", action="store_true", help="print the result object as JSON")
    parser.error = lambda message: (_ for _ in ()).throw(UsageError(message))  # one line, exit 2
    return parser


def _print_result(result: dict):
    from calculators.formatting import human, human_field

    print(result["calculator"])
    width = max(len(k) for k in result["outputs"])
    unit = (result.get("inputs") or {}).get("result_unit")  # arithmetic told what its result is: "100 GB/s", not "100B"
    for key, value in result["outputs"].items():
        shown = human(value, unit) if unit and key == "value" else human_field(key, value)
        print(f"  {key:<{width}}  {shown if value is not None else '-'}")
    print("\nWorking:")
    for index, step in enumerate(result["steps"], 1):
        print(f"  {index}. {step}")
    print("\nAssumptions:")
    for assumption in result["assumptions"]:
        print(f"  - {assumption}")
    print("\nSources:")
    for source in result["sources"]:
        print(f"  - {source}")


def _print_table(results: list[dict]):
    from calculators.formatting import human_field

    keys = [k for k in ("chip", "model") if k in results[0]["inputs"]]
    outputs = [k for k in results[0]["outputs"] if k != "verdict"]
    has_verdict = "verdict" in results[0]["outputs"]
    header = keys + outputs + (["verdict"] if has_verdict else [])
    rows = []
    for result in results:
        row = [str(result["inputs"].get(k, "")) for k in keys]
        row += [human_field(k, result["outputs"][k]) if result["outputs"][k] is not None else "-" for k in outputs]
        if has_verdict:
            row.append(result["outputs"]["verdict"])
        rows.append(row)
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) for i in range(len(header) - has_verdict)]
    for line in [header] + rows:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(line[: len(widths)])] + line[len(widths):]
        print("  ".join(cells).rstrip())
