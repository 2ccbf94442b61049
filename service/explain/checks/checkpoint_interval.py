"""How often a text says to checkpoint, against Young's interval from its own save time and time between failures
("MTBF 6000s, recover 600s, checkpoint 10s, step 15s ... the optimal frequency is ~24 steps per checkpoint"). Each input
is a time the text labels; without a save time and a time between failures nothing is worked out."""

import re

from service.explain.checks.core import Inputs, Result, run
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_OPTIMAL = re.compile(r"\b(?:optimal|optimum|best)\b[^.\n]{0,40}\bcheckpoint\w*|\bcheckpoint\w*[^.\n]{0,40}\b(?:optimal|optimum)\b"
                      r"|\bcheckpoint\w*\s+every\b[^.\n]{0,80}\b(?:maximi[sz]es|minimi[sz]es)\b"
                      r"|(?:الأمثل|المثلى)[^.\n]{0,40}(?:نقط|الحفظ)|(?:نقط|الحفظ)[^.\n]{0,40}(?:الأمثل|المثلى)", re.I)
_LABELS = {  # what names each input in the words just before its figure
    "mtbf_s": re.compile(r"(?:mean\s+time\s+(?:between|to)\s+(?:interruptions?|failures?)|\bMTBF\b|\bMTBI\b|\btmtbi\b|"
                         r"متوسط\s+(?:ال)?(?:وقت|زمن)\s+بين\s+(?:الأعطال|الانقطاعات))[^\n\d]{0,24}$", re.I),
    "recovery_time_s": re.compile(r"(?:time\s+to\s+(?:recover|restart)|recovery\s+time|restart\s+time|\bMTTR\b|\btmttr\b|"
                                  r"(?:وقت|زمن)\s+(?:التعافي|الاستعادة|إعادة\s+التشغيل))[^\n\d]{0,24}$", re.I),
    "checkpoint_time_s": re.compile(r"(?:time\s+to\s+(?:checkpoint|save)|checkpoint(?:ing)?\s+(?:time|cost|save\s+time)|save\s+time|"
                                    r"(?:وقت|زمن)\s+(?:الحفظ|حفظ\s+نقطة))[^\n\d]{0,24}$", re.I),
}
_TOLERANCE = 0.10  # "~24": Young's form and its variants (with or without the recovery time) differ by about 5%
_OFF = 0.30  # beyond this the stated interval is not Young's


def _labelled(doc: Document, name: str):
    """The one time figure the text labels as `name`, or None."""
    found = [f for f in doc.figures if f.quantity in ("time_s", "step_time_s") and f.value > 0
             and _LABELS[name].search(doc.text[max(0, f.start - 60):f.start])]
    return found[0] if len(found) == 1 else None


def checkpoint_interval(doc: Document, claim: Claim) -> Result | None:
    """The interval the claim states (in steps or in time) against sqrt(2 x (MTBF + recovery) x save time)."""
    if not _OPTIMAL.search(claim.quote):
        return None
    stated_steps = next((f for f in claim.figures if f.quantity == "steps" and f.value > 0), None)
    stated_time = next((f for f in claim.figures if f.quantity in ("time_s", "step_time_s") and f.value > 0), None)
    between, save = _labelled(doc, "mtbf_s"), _labelled(doc, "checkpoint_time_s")
    if between is None or save is None or (stated_steps is None and stated_time is None):
        return None
    inputs = Inputs(doc.lang)
    inputs.text("mtbf_s", between)
    inputs.text("checkpoint_time_s", save)
    recover = _labelled(doc, "recovery_time_s")
    if recover is not None:
        inputs.text("recovery_time_s", recover)
    step = next((f for f in doc.figures if f.quantity == "step_time_s" and f.value > 0 and not claim.start <= f.start < claim.end
                 and f not in (between, save, recover)), None)
    if stated_steps is not None and step is not None:
        inputs.text("step_time_s", step)
    index = run(doc, "checkpoint_interval", inputs)
    if index is None:
        return None
    out = doc.calculations[index]["outputs"]
    stated, computed = (stated_steps, out.get("interval_steps")) if stated_steps is not None and step is not None \
        else (stated_time, out["interval_s"]) if stated_time is not None else (None, None)
    if stated is None or not computed:
        return Result([index], None, None)
    gap = abs(stated.value / computed - 1)
    verdict = "consistent" if gap <= _TOLERANCE else "inconsistent" if gap > _OFF else None
    words = messages(doc.lang)["verdicts"]["checkpoint_interval_" + (verdict or "gap")]
    shown = f"{computed:.1f}" if stated is stated_steps else f"{computed:.0f} s"
    return Result([index], verdict, words.format(stated=stated.quote, computed=shown))
