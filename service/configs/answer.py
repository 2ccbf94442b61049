"""The configuration's place in an explanation: the prose left to explain, the `config` object, and its section of the answer."""

import copy
from functools import lru_cache

from service.configs import reading, render
from service.i18n.messages import messages


def split(text: str, lang: str) -> tuple[str, dict | None]:
    """(the prose around the configuration, DESIGN.md's `config` object); (text, None) when the text holds no configuration."""
    prose, config = _split(text, lang)
    return prose, copy.deepcopy(config)


@lru_cache(maxsize=32)
def _split(text: str, lang: str) -> tuple[str, dict | None]:
    config, blocks = reading.find(text)
    if config is None:
        return text, None
    prose = reading.prose_of(text, blocks)
    found = reading.describe(config, text, lang, blocks)
    found["_prose"] = bool(prose.strip())
    return prose, found


def attach(result: dict, config: dict | None, lang: str) -> dict:
    """The explanation object with `config` added and the configuration's section after the prose's answer."""
    if config is None:
        return result
    has_prose = config.get("_prose", True)
    if not shows_section(config):
        config.pop("_prose", None)
        # options named in a sentence of a post ("I also used --overlap-grad-reduce"): the terms explain them; a
        # configuration section would only ask for a world size and a model the post was never meant to give
        result["config"] = config
        return result
    config.pop("_prose", None)
    section = render.section({**config, "_prose": has_prose, "_intro_said": not has_prose}, lang)
    if has_prose:
        result["explanation"] = _with_gist(result["explanation"].rstrip("\n"), gist(config, lang), lang) + "\n\n" + section
    else:
        heading = messages(lang)["headings"]["gist"]
        result["explanation"] = f"## {heading}\n\n{gist(config, lang)}\n\n{section}"
        result["plain"] = gist(config, lang)
    result["config"] = config
    return result


def shows_section(config: dict) -> bool:
    """Whether the answer gives the configuration its own section (options named in a post's sentence get none)."""
    return not (config.get("_prose", True) and config.get("in_sentence") and not config.get("problems") and not config.get("evaluation"))


def _with_gist(markdown: str, sentence: str, lang: str) -> str:
    """The prose answer with the configuration's gist added to its first section ("In short"), where readers look first."""
    heading = f"## {messages(lang)['headings']['gist']}"
    parts = markdown.split("\n\n")
    if parts and parts[0].strip() == heading and len(parts) > 1:
        parts[1] = parts[1].rstrip() + " " + sentence
        return "\n\n".join(parts)
    return markdown


def gist(config: dict, lang: str) -> str:
    """One or two sentences on the configuration: what it is, its first problem or its expected MFU."""
    m = messages(lang)["config"]
    framework = m["framework_names"].get(config["framework"], config["framework"])
    world = m["gist_world"].format(n=config["world_size"], unit=render.units(config, m)) if config.get("world_size") else ""
    text = m["gist_intro"].format(framework=framework, world=world)
    if config.get("evaluation"):
        out = config["evaluation"]["outputs"]
        text += " " + m["gist_expected"].format(mfu=f"{out['mfu']:.0%}", chip=config["chip"]["name"].split(" (")[0])
    if config["problems"]:
        first = config["problems"][0]["why"].split(". ")[0].rstrip(".") + "."
        key = "gist_problem_one" if len(config["problems"]) == 1 else "gist_problems"
        text += " " + m[key].format(n=len(config["problems"]), first=first)
    elif config.get("evaluation") or render.describe_layout(config["layout"], lang) not in ("—", config["layout"].get("precision")):
        text += " " + m["gist_clean"]  # with nothing laid out nothing was checked: "no mistakes found" would say otherwise
    suggestion = config.get("suggestion") or {}
    if suggestion.get("verdict") == "better":
        text += " " + m["gist_better"].format(margin=f"{suggestion['margin']:.0%}")
    elif suggestion.get("verdict") == "fits":
        text += " " + m["gist_fits"]
    return text
