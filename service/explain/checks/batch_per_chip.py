"""A global batch over the chips that share it, when the sentence argues about it: '1K sequences on 2K GPUs' is 0.5 per GPU."""

import re

from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# the sentence speaks of how the batch is split: data parallelism, a local or per-chip batch, a limit it meets
_ARGUES = re.compile(r"\bdata[- ]parallel\w*|\bDP\b|\bFSDP\b|\blocal batch|\bper[- ](?:GPU|device|chip|rank)\b|\bmicro[- ]?batch"
                     r"|\bnot (?:possible|enough)|\bcannot\b|\bcan't\b|\blimit\w*|\bconstrain\w*|\bat least one\b"
                     r"|توازي البيانات|لكل (?:وحدة|شريحة|جهاز)|الدفعة المحلية|لا يمكن|غير ممكن|حد", re.I)

_GLOBAL = re.compile(r"\bglobal[- ]batch|\bglobal\s+batch\s+size|الدفعة (?:الكلية|العامة|الإجمالية)|حجم الدفعة (?:الكلي|العام|الإجمالي)", re.I)


def batch_per_chip(doc: Document, claim: Claim) -> Result | None:
    """Global batch (sequences) / chips, both the sentence's own, said in words when the sentence argues about the split."""
    batches = [f for f in claim.figures if f.quantity == "global_batch_sequences"]
    chips = [f for f in claim.figures if f.quantity == "n_chips"]
    if len(batches) != 1 or len(chips) != 1 or any(f.quantity in ("dp_degree", "micro_batch") for f in claim.figures):
        return None
    if not _ARGUES.search(claim.quote) or not _GLOBAL.search(claim.quote):
        return None  # 'batch size 1' beside '8xH200' is often one GPU's batch: only a batch the text calls global is split
    batch, n = batches[0], chips[0]
    if not (batch.value > 0 and n.value > 1):
        return None
    index = worked(doc, f"{batch.value:g} / {n.value:g}", f"{batch.quote} / {n.quote}", "count")
    if index is None:
        return None
    per = doc.calculations[index]["outputs"]["value"]
    key = "batch_per_chip_under_one" if per < 1 else "batch_per_chip"
    return Result([index], None, messages(doc.lang)["verdicts"][key].format(
        batch=batch.quote, chips=n.quote, per=f"{per:.3g}", unit="GPU" if "GPU" in n.quote.upper() else "chip"))
