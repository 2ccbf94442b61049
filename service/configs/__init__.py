"""Training configurations in the input: read, explained option by option, their layout evaluated, their mistakes caught.

The readers load on first need: a text with no sign of a configuration (no option, key, fence or brace)
costs one regular-expression search, not the import of the YAML and TOML parsers.
"""

import re

_SIGNS = re.compile(r"--[A-Za-z]|```|~~~|^\s*[\w.\-\"]+\s*[:=]\s*\S|^\s*[{\[]|\w=\S", re.M)


def split(text: str, lang: str) -> tuple[str, dict | None]:
    """(the prose around the configuration, DESIGN.md's `config` object); (text, None) when the text holds none."""
    if not _SIGNS.search(text):
        return text, None
    from service.configs import answer

    return answer.split(text, lang)


def shows_section(config: dict) -> bool:
    """Whether the answer gives the configuration its own section (options named in a post's sentence get none)."""
    from service.configs import answer

    return answer.shows_section(config)


def attach(result: dict, config: dict | None, lang: str) -> dict:
    """The explanation object with `config` and the configuration's section added (unchanged without one)."""
    if config is None:
        return result
    from service.configs import answer

    return answer.attach(result, config, lang)


__all__ = ["attach", "shows_section", "split"]
