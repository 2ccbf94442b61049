"""The best row of a benchmark table as a share of the one peak rate the text states, when the text asks a question.

The tables are written for these tests; every figure is worked by hand beside its case."""

from service.explain.pipeline import analyse

TEXT = ("Our card has only 200 TFLOPS of dense BF16 compute. Is there room left to speed up the kernel?\n\n"
        "KernelA: 1.0ms, 120.0 TFLOPS\n"
        "KernelB: 0.8ms, 150.0 TFLOPS\n"
        "KernelC: 0.9ms, 133.0 TFLOPS\n")


def _rows(text: str):
    doc = analyse(text, "en")
    return doc, [c for c in doc.claims if c.quote.startswith("Kernel")]


def test_the_best_row_is_said_as_a_share_of_the_stated_peak():
    # 150.0 / 200 = 75.0%, said once, on the best row only
    _, rows = _rows(TEXT)
    said = [c for c in rows if "75.0%" in c.why]
    assert len(said) == 1 and said[0].quote.startswith("KernelB") and said[0].verdict == "explained"
    assert not any("of the 200 TFLOPS" in c.why for c in rows if c is not said[0])


def test_no_question_no_share():
    # a report that asks nothing: the share is a check nobody asked for
    _, rows = _rows(TEXT.replace(" Is there room left to speed up the kernel?", ""))
    assert not any("of the 200 TFLOPS" in c.why for c in rows)


def test_a_stated_rate_below_a_row_is_no_peak():
    # 140 TFLOPS stated, a row at 150.0: 140 is not a peak of these rows, so no share (it would pass 100%)
    _, rows = _rows(TEXT.replace("200 TFLOPS", "140 TFLOPS"))
    assert not any("140 TFLOPS the text gives" in c.why for c in rows)
