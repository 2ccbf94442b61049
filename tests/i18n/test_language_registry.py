"""Adding a language is data only: a locale file, glossary columns and a prompt, from a folder of its own (issue 10)."""

import json

import pytest

from service import config
from service.cli.main import main
from service.i18n import languages, messages
from service.llm import prompts

MARK = "[eo] "


def _marked(value):
    """The English messages with every string marked, standing in for a translation."""
    if isinstance(value, dict):
        return {key: _marked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_marked(item) for item in value]
    return MARK + value if isinstance(value, str) and value.strip() else value


@pytest.fixture
def esperanto(tmp_path, monkeypatch):
    """A toy language in a temporary UNJARGON_LANGUAGES_DIR: locale, glossary columns and a prompt."""
    folder = tmp_path / "languages"
    (folder / "locale").mkdir(parents=True)
    (folder / "glossary").mkdir()
    (folder / "prompts" / "languages").mkdir(parents=True)
    english = json.loads(languages.get("en").locale_path.read_text(encoding="utf-8"))
    locale = _marked(english)
    locale.update(language="eo", name="Esperanto", direction="ltr")
    (folder / "locale" / "eo.json").write_text(json.dumps(locale, ensure_ascii=False), encoding="utf-8")
    columns = {"pipeline-parallelism": {"term": "dukta paraleleco", "definition": "La modelo estas dividita en etapojn.",
                                        "aliases": ["dukta paraleleco"]}}
    (folder / "glossary" / "eo.json").write_text(json.dumps({"language": "eo", "columns": columns}), encoding="utf-8")
    (folder / "prompts" / "languages" / "eo.j2").write_text("Respondu en Esperanto.", encoding="utf-8")
    monkeypatch.setenv("UNJARGON_LANGUAGES_DIR", str(folder))
    config.use(None)
    yield folder
    config.use(None)


def test_the_shipped_languages_are_registered_from_their_locale_files():
    assert {"en", "ar"} <= set(languages.codes())
    assert languages.get("ar").direction == "rtl" and languages.get("en").direction == "ltr"
    assert languages.detect("ما هو توازي خط الأنابيب في تدريب النماذج؟") == "ar"
    assert languages.detect("what is pipeline parallelism?") == "en"


def test_a_toy_language_from_a_folder_answers_with_no_code_change(esperanto, capsys):
    assert "eo" in languages.codes()
    assert prompts.language_instructions("eo") == "Respondu en Esperanto."
    assert messages.messages("eo")["name"] == "Esperanto"
    status = main(["explain", "--lang", "eo", "--json", "We split the model with PP over 8 stages."])
    result = json.loads(capsys.readouterr().out)
    assert status == 0 and result["language"] == "eo"
    pipeline = next(term for term in result["terms"] if term["id"] == "pipeline-parallelism")
    assert pipeline["expansion"] == "dukta paraleleco"  # the language's glossary column
    assert MARK.strip() in result["explanation"]  # the language's own wording
    # Its glossary aliases are found in text written in it.
    status = main(["explain", "--lang", "eo", "--json", "Ni uzas dukta paraleleco kun 8 etapoj."])
    found = {term["id"] for term in json.loads(capsys.readouterr().out)["terms"]}
    assert "pipeline-parallelism" in found


def test_an_unknown_language_is_refused_in_one_line(capsys):
    status = main(["explain", "--lang", "xx", "PP is pipeline parallelism"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "--lang must be a language code:" in err and "en" in err and "ar" in err and "xx" in err
