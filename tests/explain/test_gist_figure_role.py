"""A figure keeps the role its own clause gives it; a news report's lead is its point; a topic line names the main subject."""

from service.explain import gist, gist_cross
from service.explain.pipeline import analyse


def test_one_units_price_is_said_as_a_unit_price_not_the_systems_cost():
    doc = analyse("يبلغ سعر الوحدة الواحدة حوالي 25,000 دولار، ما يعني أن الشركة أنفقت 400 مليون دولار.", "en")
    said = gist_cross.restated(doc, 0)
    assert "$25,000 per unit" in said and "cost of about $25,000" not in said
    doc = analyse("The unit price of one H100 is about $25,000. The whole cluster cost $400 million to build.", "ar")
    assert "تكلفة للوحدة الواحدة" in gist_cross.restated(doc, 0)
    assert "للوحدة" not in gist_cross.restated(doc, 1)  # the cluster's cost is a cost


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


def test_a_count_is_said_as_chips_only_when_its_own_noun_names_chips():
    doc = analyse("تسربت وحدة معالجة الرسومات H100: قالب ضخم يحتوي على ما يصل إلى 144 رسالة نصية قصيرة.", "en")
    assert all("144 chips" not in gist_cross.restated(doc, i) for i in range(len(doc.sentences)))
    doc = analyse("دُرّب النموذج على 2,048 شريحة TPU v3 خلال 4 أيام.", "en")
    assert "2,048" in gist_cross.restated(doc, 0)
