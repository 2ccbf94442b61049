"""Arabic numbers that agree with their nouns: "شريحة واحدة", "شريحتان", "8 شرائح", "16 شريحة", "7 مليارات معامل"."""

# The scale words of large amounts, each with its forms (one, two, plural for 3-10, singular after 11 and more).
_SCALES = ((1e12, {"one": "تريليون", "two": "تريليونا", "few": "تريليونات", "many": "تريليون"}),
           (1e9, {"one": "مليار", "two": "مليارا", "few": "مليارات", "many": "مليار"}),
           (1e6, {"one": "مليون", "two": "مليونا", "few": "ملايين", "many": "مليون"}),
           (1e3, {"one": "ألف", "two": "ألفا", "few": "آلاف", "many": "ألف"}))


def grade(number: float) -> str:
    """Which form of a counted noun follows `number` in Modern Standard Arabic written with digits.

    'one' (1), 'two' (2), 'few' (3-10: a plural noun), 'many' (11-99: a singular accusative noun),
    'hundreds' (100 and more ending in 00-02: a singular genitive noun), 'fraction' (not whole: singular genitive).
    """
    if not float(number).is_integer():
        return "fraction"
    n = int(number)
    if n == 1:
        return "one"
    if n == 2:
        return "two"
    tail = n % 100
    if 3 <= tail <= 10:
        return "few"
    if 11 <= tail <= 99:
        return "many"
    return "hundreds"


def digits(number: float) -> str:
    """A number as digits with thousands separators and no trailing zeros ("1,200", "7.4")."""
    if float(number).is_integer():
        return f"{int(number):,}"
    return f"{number:,.2f}".rstrip("0").rstrip(".")


def count(number: float, forms: dict) -> str:
    """`number` and its noun in agreement. `forms` gives the noun's "one" and "two" phrases (the number written in
    words: "يوم واحد", "يومان"), its "plural" (after 3-10) and "singular" (after 100, and after a fraction) and,
    where Arabic writes it differently, its "accusative" (after 11-99: "يومًا"; defaults to "singular")."""
    form = grade(number)
    if form in ("one", "two"):
        return forms[form]
    noun = {"few": forms["plural"], "many": forms.get("accusative", forms["singular"])}.get(form, forms["singular"])
    return f"{digits(number)} {noun}"


def amount(value: float, noun: str) -> str:
    """A large amount with its scale word and noun: 7e9 "معامل" is "7 مليارات معامل", 1e9 "دولار" is "مليار دولار",
    2e6 is "مليونا دولار", 17e9 is "17 مليار معامل", 5.1e9 is "5.1 مليار معامل"; below a thousand, the digits."""
    for scale, words in _SCALES:
        if abs(value) >= scale:
            number = round(value / scale, 2)
            form = grade(number)
            if form == "one":
                return f"{words['one']} {noun}"
            if form == "two":
                return f"{words['two']} {noun}"
            word = words["few"] if form == "few" else words["many"]
            return f"{digits(number)} {word} {noun}"
    return f"{digits(value)} {noun}"
