"""The README documents every setting the program reads, with what it accepts (issue 10)."""

from pathlib import Path

from service import config

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_every_variable_is_in_the_readme_table_with_what_it_accepts():
    for setting in config.SETTINGS:
        row = next((line for line in README.splitlines() if line.startswith(f"| `{setting.variable}` |")), None)
        assert row is not None, f"{setting.variable} is missing from the README's Configuration table"
        if not callable(setting.accepts):
            assert setting.accepts in row, setting.variable


def test_nothing_outside_the_settings_module_reads_the_environment():
    root = Path(__file__).resolve().parents[2]
    readers = []
    for path in [*(root / "service").rglob("*.py"), *(root / "calculators").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        if path.name != "config.py" and ("os.environ" in text or "getenv(" in text):
            readers.append(str(path.relative_to(root)))
    assert readers == []
