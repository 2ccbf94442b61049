"""A figure keeps the role its own clause gives it; a news report's lead is its point; a topic line names the main subject."""

from service.explain import gist
from service.explain.pipeline import analyse


def test_a_news_reports_lead_is_its_point_not_a_side_figure_after_it():
    doc = analyse("أعلنت شركة Meta عن تدريب نموذج Llama 3 على 16,000 شريحة H100 خلال 54 يومًا. "
                  "وتقول الشركة إن شريحة H100 هي الأسرع. يبلغ سعر الوحدة الواحدة حوالي 25,000 دولار.", "en")
    out = gist.gist(doc, [])
    assert out and out[0]["from"] == [0]
    assert "Meta" in out[0]["text"] and "25,000" not in out[0]["text"]


def test_a_topic_line_never_names_a_thing_said_less_than_the_main_subject():
    # the switch ("محول") is named twice, the platform three times: "reports on the switch" would name a side item
    doc = analyse("كشفت Nvidia عن منصة Rubin الجديدة. تضم منصة Rubin محول NVLink ومحول Ethernet. "
                  "وتخفض منصة Rubin تكلفة الرمز.", "en")
    for item in gist.gist(doc, []):
        assert "transformer" not in item["text"].lower() and "switch" not in item["text"].lower()

