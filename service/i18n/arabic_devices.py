"""One word for the devices of a GPU passage: the generic «شريحة» (chip) of the glossary becomes «وحدة GPU»."""

import re

_LETTER = "\u0621-\u064A\u0671-\u06D3"
# the passage's devices are GPUs: the word, a GPU's name or the Arabic for it
_GPU = re.compile(r"\bGPUs?\b|\b(?:[HAVBL]\d{2,3}S?|GB[23]00|H800|A800|H20|MI[23]\d{2}X?|RTX\s?\d{4})\b|وحد(?:ة|ات) (?:معالجة الرسومات|GPU)")
# another kind of accelerator, or a CPU, where «شريحة» may name it: the generic word stays
_OTHER = re.compile(r"TPU|Trainium|Inferentia|Gaudi|\bNPUs?\b|Ascend|\bLPUs?\b|Cerebras|\bWSE|Dojo|\bASICs?\b|MTIA|Maia|Groq|"
                    r"\bCPUs?\b|Grace|\bXPUs?\b|Tenstorrent|SambaNova|Graphcore|\bIPUs?\b|accelerators?|شريح|شرائح|رقاق|رقائق|مسرّ?ع", re.I)
_FORMS = {"شريحة": "وحدة GPU", "شرائح": "وحدات GPU", "شريحتين": "وحدتي GPU", "شريحتان": "وحدتا GPU"}
_PREPOSITION = {"لل": "ل", "بال": "ب", "كال": "ك", "ال": "", "ب": "ب", "ل": "ل", "ك": "ك", "": ""}
# not a named chip («شرائح NVSwitch», «شريحة Grace»), a superchip («الشرائح الفائقة»), nor where GPUs are named just after
# («بين الشرائح: بين وحدات GPU» distinguishes the two)
_CHIP = re.compile(rf"(?<![{_LETTER}])([وف]?)(لل|[بك]?ال|[بلك])?(شريحتين|شريحتان|شريحة|شرائح)(?![{_LETTER}])"
                   rf"(?!\s+(?:[A-Za-z]|ال?فائق))(?![^.؛\n]{{0,25}}GPU)")
# a bare form heading a construct («شرائح توازي البيانات», «شريحة العقدة»): «وحدات GPU» already is one, so the noun
# after it takes «في» («وحدات GPU في العقدة»)
_CONSTRUCT = re.compile(rf"\s+(?:ال[{_LETTER}]+|توازي|مجموعة|مجموعات|عقدة|خادم|نوع|طراز|جيل)(?![{_LETTER}])")
# a code span keeps its words; a quotation «...» of a GPU passage is the answer's own reading (the passage never says
# «شريحة»: gpu_only), so it follows too ("الرقم «1,024 شريحة»")
_CODE = re.compile(r"`[^`\n]*`")
# a line about other chips than the passage's GPUs (a switch, a CPU, a superchip, links between CPU and GPU): its
# «شريحة» may be any of them (round 48: NVSwitch became «وحدة GPU في التبديل», NVLink-C2C a link «بين وحدات GPU»)
# named chips that are no GPUs («شرائح أمازون الخاصة Trainium», round 53 P02-ar: "Amazon's own GPU units Trainium") too
_OTHER_CHIPS = re.compile(r"NVSwitch|C2C|Grace|\bG[BH]\d{3}|DGX|HGX|superchip|ConnectX|BlueField|CPU|فائق|التبديل|مبدل|المعالج المركزي|بطاقة الشبكة|شركة|"
                          r"TPU|Trainium|Inferentia|Gaudi|MTIA|Maia|Ascend|Cerebras|Groq|\bNPU|\bLPU")
# an entry of a device word itself (GPU, accelerator, chip): its definition names the kinds of chip there are
# (a term's bold name, never a claim's: "- **الرقم «1,024 شريحة»**" is the answer's own reading of a count)
_MEMORY_AFTER = re.compile(r"\s*(?:ال)?(?:ذاكرة|ذواكر)|\s*(?:DRAM|HBM|SRAM|GDDR|LPDDR|NAND|flash)", re.I)
_GPU_ITEM = re.compile(r"^- \*\*[^*\n\d«]*(?:GPU|TPU|مسر|شريح|شرائح|accelerator|chip)")


def gpu_only(source: str) -> bool:
    """Whether the passage's devices are GPUs only (and it never calls them «شرائح» itself)."""
    return bool(_GPU.search(source)) and not _OTHER.search(source)


def chips_as_gpus(text: str) -> str:
    """`text` with «شريحة» and its plural and dual as «وحدة GPU» forms, the article dropped («للشرائح» -> «لوحدات
    GPU»), outside code: a round-46 reader met «الشرائح» and «وحدات GPU» for the same devices in one answer."""
    def one(m: re.Match) -> str:
        if "GPU" in m.string[max(0, m.start() - 14):m.start()]:
            return m.group(0)  # «وحدة GPU أو شريحة واحدة» sets the two apart: not «وحدة GPU أو وحدة GPU»
        if _MEMORY_AFTER.match(m.string, m.end()):
            return m.group(0)  # «شرائح ذاكرة DRAM» stacked in an HBM tower are memory dies, not GPUs (round 49, P24-ar)
        if (not m.group(2) or m.group(2) in ("ب", "ل", "ك")) and _CONSTRUCT.match(m.string, m.end()):
            if _CONSTRUCT.match(m.string, m.end()).group(0).strip().startswith("ال"):
                return m.group(0)  # «شريحة التبديل» is a switch chip, another kind of chip (round 48, P04-ar)
            # a bare form heading a construct: «شرائح توازي البيانات» -> «وحدات GPU في توازي البيانات»
            return m.group(1) + _PREPOSITION[m.group(2) or ""] + _FORMS[m.group(3)] + " في"
        return m.group(1) + _PREPOSITION[m.group(2) or ""] + _FORMS[m.group(3)]

    def line_of(line: str) -> str:
        if _GPU_ITEM.match(line) or _OTHER_CHIPS.search(line):
            return line  # the GPU's own entry defines it as a chip: «وحدة GPU: وحدة GPU صممت ...» would be circular
        out, last = [], 0
        for code in _CODE.finditer(line):
            out += [_CHIP.sub(one, line[last:code.start()]), code.group(0)]
            last = code.end()
        return "".join(out) + _CHIP.sub(one, line[last:])
    return "\n".join(line_of(line) for line in text.split("\n"))
