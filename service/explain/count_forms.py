"""A reading's counted noun agreeing with its number (data/locale "count_forms"): "across 1 GPU", «على شريحتين»."""

from service.i18n.messages import messages


def agreeing(template: str, number, lang: str) -> str:
    """`template` with the noun after {value} agreeing with `number` (data/locale "count_forms"): "across 1 GPU",
    in Arabic "على شريحة واحدة", "على شريحتين", "على 16 شريحة"."""
    forms = messages(lang).get("count_forms", {})
    try:
        n = float(number)
    except (TypeError, ValueError):
        return template
    if not n.is_integer():
        return template
    n = int(n)
    grade = "one" if n == 1 else "two" if n == 2 else "few" if 3 <= n <= 10 else "many" if n >= 11 else "other"
    for noun, by_grade in forms.items():
        said = "{value} " + noun
        if said in template and grade in by_grade:
            return template.replace(said, by_grade[grade], 1)
    return template
