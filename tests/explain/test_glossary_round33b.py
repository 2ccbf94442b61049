"""Round 33b long tail: terms the held-out Arabic passages of rounds fifteen to twenty needed (data/glossary/long_tail_round33b.json,
Arabic aliases added to older entries, and machine translations added to data/mistranslations_ar.json). Real sentences from
those passages must find the entry; ordinary words (textiles, a hospital short of equipment, a camera's dynamic range, browser
bookmarks, a judo weight class, a fighter jet) stay ordinary."""


import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_whole, detected

pytestmark = pytest.mark.skipif(not (data_dir() / "glossary" / "long_tail_round33b.json").exists(),
                                reason="round 33b glossary data not present")

# https://github.com/AhmedAlmaghz/pytorch/blob/527da7f73654f317125bd3d5fe48161dc50dd9bc/docs/source/distributed.tensor.parallel.rst
TP_SHARD = ("عند استخدام Shard(dim) كتخطيطات المدخلات/المخرجات لأنماط التوازي المذكورة أعلاه، نفترض أن منسوجات تنشيط "
            "المدخلات/المخرجات مجزأة بالتساوي على بعد المنسوجات dim على DeviceMesh التي تعمل عليها TP.")
TP_PLAN = ("بالنسبة للنماذج مثل Transformer، نوصي المستخدمين باستخدام ColwiseParallel و RowwiseParallel معًا في خطة التوازي "
           "لتحقيق التجزئة المرغوبة للنموذج بالكامل (أي Attention وMLP).")
# https://github.com/nassersala/arabic-abstracts/blob/336fe3efbce32223bb63b0a51efbe22591f967a3/full_papers/1906.08237/08-experiments.md
XLNET = ("على وجه التحديد، نتدرب على 512 شريحة TPU v3 لـ 500 ألف خطوة مع محسن انحدار وزن Adam، وانحدار معدل التعلم الخطي، "
         "وحجم دفعة 8192، والتي تستغرق حوالي 5.5 أيام. لوحظ أن النموذج لا يزال يعاني من نقص التجهيز للبيانات في نهاية التدريب. "
         "أخيراً، نقوم بإجراء دراسة الاستئصال (القسم 3.4) بناءً على XLNet-Base-wikibooks.")
# https://github.com/nassersala/arabic-abstracts/blob/531b86d8cbc5e7886103fac8b1f7a29c2b53e325/full_papers/2302.13971/02-approach.md
LLAMA_RECOMPUTE = ("لتحسين كفاءة التدريب بشكل أكبر، قللنا كمية التنشيطات التي يتم إعادة حسابها أثناء المرور العكسي باستخدام نقاط "
                   "التحقق.")
LLAMA_AUTOGRAD = ("يتحقق ذلك من خلال تنفيذ دالة المرور العكسي يدوياً لطبقات المحول، بدلاً من الاعتماد على التفاضل التلقائي في "
                  "PyTorch.")
# https://github.com/AhmedAlmaghz/pytorch/blob/db4286eb170b6c6f9f72a7bc0b324d490d9286ae/docs/source/ddp_comm_hooks.rst
POWERSGD = ("PowerSGD (Vogels et al.، NeurIPS 2019) هو خوارزمية ضغط التدرج، والتي يمكن أن توفر معدلات ضغط عالية جدًا وتسريع "
            "التدريب الموزع المحدود بالنطاق الترددي. تحتاج هذه الخوارزمية إلى الحفاظ على كل من بعض فرط المعلمات وحالة "
            "الداخلية. لذلك، PowerSGD هوك الاتصال هو هوك ذو حالة، ويحتاج المستخدم إلى توفير كائن الحالة المحدد أدناه.")
# https://kognitium.com/ar/thread/216d3134-9c60-443b-831b-ce4545c9f6ec
BF16 = ("- النطاق الديناميكي المحفوظ: يحتفظ تنسيق bfloat16 بنفس نطاق الأس مثل float32 ، وهو أمر مفيد لتدريب نماذج التعلم "
        "العميق.")
# https://github.com/AhmedAlmaghz/MaghzDocs/blob/5184838ab31ed81e532838e9619dcb638effd947/public/markdown/torch-XLA/spmd_distributed_checkpoint.md
XLA_ASYNC = ("- الحفظ الموزع غير المتزامر: يتم كتابة الإشارات المرجعية المتخذة من خلال واجهة برمجة تطبيقات "
             "CheckpointManager.save_async بشكل غير متزامن لإلغاء حظر التدريب أثناء الإشارة المرجعية.")
XLA_GLOO = ("بدلاً من ذلك، يجب استخدام مجموعة عمليات وحدة المعالجة المركزية مثل \"gloo\". في وحدات TPU، لا يزال init_method "
            "\"xla://\" مدعومًا لاكتشاف عنوان IP الرئيسي وحجم العالم العالمي والترتيب المضيف.")
# https://github.com/microsoft/PhiCookBook/blob/3ec6531165b2936b5f154e8709ab285b02cdcd2e/translations/ar/md/01.Introduction/01/01.Hardwaresupport.md
PHI_ORT = ("من الممكن دعم تعدد وحدات معالجة الرسومات لنموذج Phi، لكن ORT مع وحدتي GPU لا يضمن زيادة في الأداء مقارنة بتشغيل "
           "مثيلين من ort.")
# https://www.apidog.com/ar/blog/run-qwen3-locally (passage ar-apidog-qwen3-235b-a22b-moe-dense)
QWEN3 = ("أساس هذا الإصدار هو الوزن المفتوح لعدة نماذج، بما في ذلك نوعين من متجانسي الخبراء (Qwen3-235B-A22B وQwen3-30B-A3B) "
         "وستة نماذج كثيفة تتراوح من 0.6B إلى 32B من المعلمات.")
# https://github.com/microsoft/edgeai-for-beginners/blob/a60b14f0a080e880ec4bc10c2db7a1c115ec368f/translations/ar/Module02/04.BitNETFamily.md
BITNET = ("تشمل عملية التكميم تكميم الأوزان الثلاثية باستخدام تكميم absmean أثناء التمرير الأمامي، تكميم التنشيط ذو 8 بت "
          "باستخدام تكميم absmax لكل رمز، التدريب من البداية باستخدام تقنيات واعية بالتكميم بدلاً من التكميم بعد التدريب.")
# https://github.com/Mahmoodsalah/llm-bootcamp/blob/601543052f0e2ab85e971da21bfeefaaac7454a4/src/lib/content/batching.tsx
BOOTCAMP = ("التجميع المستمر (Continuous batching) (قدمته ورقة Orca وتبنته vLLM/TGI/TensorRT-LLM) يجدول على مستوى الخطوة "
            "الواحدة: بعد كل خطوة توليد، تغادر التسلسلات المنتهية الدفعة فورًا وتنضم الطلبات المنتظرة.")
# https://mostathmr.com/ar/themes/20033-nvidia-s-supercomputer-may-bring-on-a-new-era-of-chatgpt
MOE_AUX = ("المشكلة الجوهرية في هذا الحل: الخسارة المساعدة تتعارض مع الهدف الحقيقي (تقليل خطأ التنبؤ). إنها «تجذب» التدريب "
           "بعيدًا عن أفضل توجيه لغرض اللغة، نحو توجيه متوازن قسرًا. إذا جعلت $\\alpha$ كبيرًا، تتحسّن الموازنة لكن تتدهور جودة "
           "النموذج (تُدفع الرموز إلى خبراء غير مثاليين).")
MOSTATHMR = "الهدف؟ ثورة الذكاء الاصطناعي التوليدي وأنظمة الاقتراحات ومعالجة البيانات على نطاق لم نشهده من قبل."

# (term id, text quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # new entries
    ("tensor", TP_SHARD, "منسوجات تنشيط"),
    ("tp-parallel-style", TP_SHARD, "لأنماط التوازي"),
    ("tp-parallel-style", TP_PLAN, "خطة التوازي"),
    ("generative-ai", MOSTATHMR, "الذكاء الاصطناعي التوليدي"),
    ("recommender-system", MOSTATHMR, "وأنظمة الاقتراحات"),
    # https://mittrarabia.com/مراكز-بيانات-الذكاء-الاصطناعي (passage ar-mittrarabia-dc-power-127gw-inference)
    ("generative-ai", "ومن المتوقع أن يخصص ما يقارب 35% من هذا الطلب عام 2028 لدعم تطبيقات الذكاء الاصطناعي التوليدي (GenAI)، على أن يستخدم أكثر من 90% من هذا الاستهلاك لأغراض الاستدلال (Inferencing).", "الذكاء الاصطناعي التوليدي"),
    ("ablation-study", XLNET, "دراسة الاستئصال"),
    ("underfitting", XLNET, "نقص التجهيز للبيانات"),
    ("autograd", LLAMA_AUTOGRAD, "التفاضل التلقائي"),
    ("gradient-compression", POWERSGD, "خوارزمية ضغط التدرج"),
    ("powersgd", POWERSGD, "PowerSGD"),
    ("ddp-comm-hook", POWERSGD, "هوك الاتصال"),
    # https://github.com/AhmedAlmaghz/MaghzDocs/blob/5184838ab31ed81e532838e9619dcb638effd947/public/markdown/torch-XLA/pjrt.md
    ("pjrt", "يظهر TorchBench تحسينات في متوسط وقت التدريب عبر المهام باستخدام PJRT مقارنة بـ XRT، مع متوسط تحسن يزيد عن 35% على TPU v4-8.", "PJRT"),
    ("xrt", "يظهر TorchBench تحسينات في متوسط وقت التدريب عبر المهام باستخدام PJRT مقارنة بـ XRT، مع متوسط تحسن يزيد عن 35% على TPU v4-8.", "XRT"),
    # https://al-ain.com/article/ai-data-centers-space-problem-nvidia
    ("ai-factory", "كشفت شركة إنفيديا (NVIDIA) عن تقنية شبكات جديدة تُدعى Spectrum-XGS Ethernet، والتي تمهد الطريق لتحويل مراكز بيانات موزعة إلى ما يشبه \"مصانع ذكاء اصطناعي فائقة\".", "مصانع ذكاء اصطناعي"),
    # https://github.com/microsoft/edgeai-for-beginners/blob/eaed6d682472297c26d0c70f8d109d2b8e237896/translations/ar/Module04/01.Introduce.md
    ("simd", "فوائد التنفيذ: يوفر الاستدلال المحسن لوحدة المعالجة المركزية مع تسريع SIMD تحميل وتنفيذ النماذج بكفاءة في الذاكرة.", "تسريع SIMD"),
    ("int4", "طرق التكميم: يدعم الإطار مستويات تكميم مختلفة بما في ذلك Q4_0 (تكميم 4-بت مع تقليل كبير للحجم - مثالي للنشر على الأجهزة المحمولة).", "تكميم 4-بت"),
    ("dynamic-range", BF16, "النطاق الديناميكي"),
    # https://github.com/usufalbaz/AI-Project-p/blob/e71586124dbc4649d10b8a8e9d8a29c1e5790f30/src/data/chaptersPart3.ts
    ("kl-divergence", "استخدام خوارزمية PPO (Proximal Policy Optimization) لضبط سياسة النموذج التوليدي، مع إضافة عقوبة KL-Divergence لمنع النموذج من تدمير قدراته اللغوية.", "عقوبة KL"),
    ("instructgpt", "في أسلوب RLHF الكلاسيكي (كما في InstructGPT):", "InstructGPT"),
    # https://github.com/intellecat/SillyTavern-Docs/blob/d964d0c494408ba312a77d06fa0e0a889d149af1/ar/Usage/API_Connections/koboldcpp.md
    ("koboldcpp", "في هذه الحالة، يستخدم KoboldCpp حوالي 9 جيجابايت من VRAM.", "KoboldCpp"),
    ("text-generation-inference", BOOTCAMP, "TGI"),
    ("static-batching", "التجميع الساذج (static batching) يجمع N طلبًا، يشغلها معًا، وينتظر انتهاء الجميع.", "التجميع الساذج"),
    # https://nerdleveltech.com/ar/courses/llm-production-infrastructure/learn/vllm-inference-engines/prefix-caching
    ("prefix-caching", "التخزين المؤقت للبادئة يقلل بشكل كبير من زمن الاستجابة للتطبيقات ذات المحثات النظامية أو السياقات المتكررة.", "التخزين المؤقت للبادئة"),
    # https://github.com/AhmedAlmaghz/pytorch/blob/579b7fbf25b4bbd248dfe5e981b40adebc15ddbc/docs/source/checkpoint.rst
    ("rng-state", "يمكن أن يتسبب ذلك في تقدم حالات الإصرار مثل حالة مولد الأرقام العشوائية (RNG) أكثر مما كانت ستكون عليه بدون إنشاء نقطة تفتيش.", "حالة مولد الأرقام العشوائية"),
    ("forward-pass", "يتم تنفيذ إنشاء نقطة التفتيش عن طريق إعادة تشغيل جزء من عملية التغذية الأمامية لكل جزء تمت نقطة تفتيشه أثناء الانتشار الخلفي.", "عملية التغذية الأمامية"),
    ("absmax-quantization", BITNET, "تكميم absmean"),
    # https://tensorflow.org/guide/distributed_training?hl=ar
    ("keras", "يمكنك استخدام tf.distribute.Strategy مع واجهة برمجة تطبيقات عالية المستوى مثل Keras Model.fit ، بالإضافة إلى حلقات تدريب مخصصة (وبشكل عام ، أي حساب باستخدام TensorFlow).", "Keras Model.fit"),
    ("tf-function", "في TensorFlow 2.x ، يمكنك تنفيذ برامجك بلهفة ، أو في رسم بياني باستخدام tf.function .", "tf.function"),
    # https://github.com/amd/playbooks/blob/39f03dceb80a042bfc1b7ce297fc66c26549ccd1/auto-translations/ar/supplemental/clustering-rpc-server-4-node/README.md
    ("tensor", "يتعامل RPC مع عمليات نقل المصفوفات (tensors) والتزامن خلف الكواليس.", "المصفوفات (tensors)"),
    # Arabic aliases added to older entries
    # https://github.com/microsoft/edgeai-for-beginners/blob/a60b14f0a080e880ec4bc10c2db7a1c115ec368f/translations/ar/Module02/04.BitNETFamily.md
    ("gpu-kernel", "تعتمد نماذج BitNET على مخططات تكميم ثلاثية مبتكرة، إجراءات تدريب متخصصة تستوعب التكميم الشديد، ونواة استنتاج محسنة مصممة خصيصًا لعمليات البت الواحد.", "ونواة استنتاج"),
    # https://github.com/microsoft/generative-ai-for-beginners/blob/2cb651ad9860a742cc9667252996ef17dab91f92/translations/ar/19-slm/README.md
    ("expert", "يتألف Phi-3.5-MoE من 16 وحدة خبراء بحجم 3.8 مليار معامل لكل منها.", "وحدة خبراء"),
    ("active-parameters", "يحقق Phi-3.5-MoE، مع 6.6 مليار معامل نشطة فقط، مستوى مشابهًا من التفكير، وفهم اللغة، والرياضيات كنماذج أكبر بكثير.", "معامل نشطة"),
    # https://github.com/kixago/gpuflow-blog/blob/0b5d835639a2a12cd68034ed0d18c6a5ee83b918/src/content/blog/ar/private-llm-fine-tuning-guide.md
    ("total-parameters", "تتضمن عائلة Llama الآن Llama 4 Scout وMaverick، لكن هذه تستخدم بنية خليط الخبراء مع 109 مليار و400 مليار معامل إجمالي على التوالي.", "معامل إجمالي"),
    # https://github.com/microsoft/PhiCookBook/blob/04dc530a9503168786f33001ac4d59a797c708b7/translations/ar/md/01.Introduction/04/QuantifyingPhi.md
    ("activations", "تكميم INT4 هو طريقة تكميم جذرية تقوم بتكميم أوزان وقيم التنشيط في النموذج إلى أعداد صحيحة بطول 4 بت.", "وقيم التنشيط"),
    ("open-weight-model", QWEN3, "الوزن المفتوح"),
    ("mixture-of-experts", QWEN3, "متجانسي الخبراء"),
    # https://arabic.mellanoxnetwork.com/news/nvidia-network-adapter-solutions-rdma-and-roce-architecture-for-low-latency-transmission-optimizatio-246817.html
    ("nic", "توفر حلول محولات الشبكة من NVIDIA مع تقنيات RDMA و RoCE تحسينات أداء رائدة لمراكز البيانات الحديثة وحملات العمل الذكية.", "محولات الشبكة"),
    # https://github.com/amd/playbooks/blob/482eec838104d9df32ba635cfc3d3f684c5e904e/auto-translations/ar/supplemental/llama-factory-finetuning/README.md
    ("vram", "تتطلب تقنيات الضبط الدقيق في هذا الدليل بطاقة رسومات تحتوي على ما لا يقل عن 16 جيجابايت من ذاكرة GPU المخصصة و32 جيجابايت من ذاكرة النظام (RAM).", "ذاكرة GPU المخصصة"),
    # https://github.com/AhmedAlmaghz/MaghzDocs/blob/5184838ab31ed81e532838e9619dcb638effd947/public/markdown/torch-XLA/amp.md
    ("loss-scaling", "استخدم تدرج التدرج لمنع تدرجات float16 من الانخفاض.", "تدرج التدرج"),
    # https://github.com/intellecat/SillyTavern-Docs/blob/d964d0c494408ba312a77d06fa0e0a889d149af1/ar/Usage/API_Connections/self-hosted.md
    ("quantization", "من الممكن تقليل متطلبات VRAM عن طريق ضغط النموذج باستخدام تقنيات الكمومة، مثل GPTQ أو AWQ.", "تقنيات الكمومة"),
    # https://github.com/lzwjava/blog-source/blob/67476263b3a478b2b5b61aa437ddd27b75eb398c/_posts/ar/2025-11-13-4070ti-annual-compute-ar.md
    ("flop-per-second", "سيكون حوالي 1.14 × 10²¹ عملية فاصلة عائمة (FLOP)، أو 1.14 زيتافلوب.", "زيتافلوب"),
    # https://afqksa.com (passage ar-afqksa-nvidia-b30-china-80pct)
    ("peak-flops", "ويُعتبر هذا المعالج مثيرًا للإعجاب، حيث يمكن أن يحقق ما يصل إلى 80٪ من الأداء الأقصى لسلسلة Blackwell الشهيرة.", "الأداء الأقصى"),
    # https://github.com/microsoft/edgeai-for-beginners/blob/eaed6d682472297c26d0c70f8d109d2b8e237896/translations/ar/Module04/02.Llamacpp.md
    # the row's F16 and its Arabic gloss «دقة نصفية» both name fp16; since half precision became a guarded alias (round 48:
    # bf16 is half precision too) the gloss is the spelling the detector reports
    ("fp16", "يدعم Llama.cpp مستويات تكميم مختلفة: النوع البتات الوصف حالة الاستخدام F16 16 دقة نصفية جودة عالية، ذاكرة كبيرة Q8_0 8 تكميم 8 بت", "دقة نصفية"),
    # https://www.ultralytics.com/ar/glossary/mixed-precision
    ("optimizer-step", "والحفاظ على المكونات الحرجة مثل تحديثات الوزن بدقة أعلى، يمكن للتدريب المختلط الدقة أن يسرع الأداء بشكل كبير.", "تحديثات الوزن"),
    ("mixed-precision", "- تدريب دقيق مختلط أسهل: يسهل Bfloat16 التدريب الدقيق المختلط ، حيث يتم استخدام كل من bfloat16 و float32.", "تدريب دقيق مختلط"),
    # https://nerdleveltech.com/ar/courses/llm-production-infrastructure/learn/inference-fundamentals/speculative-decoding
    ("forward-pass", "المجموع: 5 تمريرات GPU أمامية متسلسلة", "تمريرات GPU أمامية"),
    # https://github.com/AhmedAlmaghz/pytorch_xla/blob/d1f92688cb1bcf6dbf5884ded53e1c730cf9f4df/docs/ddp.md
    ("distributed-data-parallel", "يبلغ الفرق في الأداء بين نهجنا الأصلي للتوازي في البيانات الموزعة وغلاف DistributedDataParallel هو: 1 - 14313.78 / 24351.74 = 41.22%.", "للتوازي في البيانات الموزعة"),
    ("activation-checkpointing", LLAMA_RECOMPUTE, "التنشيطات التي يتم إعادة حسابها"),
    ("backward-pass", LLAMA_RECOMPUTE, "المرور العكسي"),
    ("sequence-parallelism", "للاستفادة الكاملة من هذا التحسين، نحتاج إلى تقليل استخدام الذاكرة للنموذج باستخدام نماذج ومتوازيات متسلسلة، كما هو موضح في Korthikanti et al. (2022).", "نماذج ومتوازيات متسلسلة"),
    ("tokens-per-second", "عند تدريب نموذج بـ 65B معامل، يعالج رمزنا حوالي 380 رمزاً/ثانية/GPU على 2048 وحدة معالجة رسومية A100 بسعة 80 جيجابايت من ذاكرة الوصول العشوائي.", "رمزاً/ثانية/GPU"),
    ("hyperparameters", POWERSGD, "فرط المعلمات"),
    ("hyperparameters", "أكبر نموذج لدينا XLNet-Large له نفس معاملات المعمارية الفائقة لـ BERT-Large، مما ينتج عنه حجم نموذج مماثل.", "معاملات المعمارية الفائقة"),
    ("adamw", XLNET, "محسن انحدار وزن Adam"),
    ("lr-schedule", XLNET, "وانحدار معدل التعلم الخطي"),
    ("async-checkpointing", XLA_ASYNC, "الحفظ الموزع غير المتزامر"),
    ("checkpoint", XLA_ASYNC, "الإشارات المرجعية"),
    ("gloo", XLA_GLOO, "gloo"),
    ("rank", XLA_GLOO, "والترتيب المضيف"),
    ("replica", PHI_ORT, "مثيلين"),
    ("replica", "في مؤتمر Build 2024 فريق GenAI ONNX أعلنوا أنهم فعلوا دعم تعدد المثيلات بدلاً من تعدد وحدات معالجة الرسومات لنماذج Phi.", "تعدد المثيلات"),
    # https://www.tesery.com/ar-sa/blogs/news/elon-musk-s-xai-gains-first-access-to-saudi-supercluster-with-600-000-nvidia-gpus
    ("data-center", "شركة إيلون ماسك للذكاء الاصطناعي، xAI، ستصبح أول عميل لمركز بيانات ذكاء اصطناعي جديد ومتطور يتم تطويره بواسطة Humain.", "لمركز بيانات ذكاء اصطناعي"),
    # https://nerdleveltech.com/ar/courses/fine-tuning-llms/learn/understanding-fine-tuning/peft-methods-explained
    ("int4", "QLoRA يجمع التكميم 4-bit مع LoRA، مما يتيح ضبط نماذج 70B على GPU واحد 24GB.", "التكميم 4-bit"),
    # https://binaryoption.wiki/ar/index.php?title=HBM
    ("pcb", "- التكديس ثلاثي الأبعاد (3D Stacking): بدلاً من وضع رقائق الذاكرة جنبًا إلى جنب على لوحة الدوائر المطبوعة (PCB)، يتم تكديس رقائق HBM فوق بعضها البعض.", "لوحة الدوائر المطبوعة (PCB)"),
    ("orca-serving", BOOTCAMP, "ورقة Orca"),
    # https://github.com/AhmedAlmaghz/MaghzDocs/blob/5184838ab31ed81e532838e9619dcb638effd947/public/markdown/torch-XLA/pjrt.md
    ("grpc", "مع XRT، يقوم العامل 0 بتشغيل خدمة رئيسية للشبكة، وتتصل جميع العمليات على جميع العاملين بتلك الخدمة عبر gRPC.", "gRPC"),
    ("torchbench", "يظهر TorchBench تحسينات في متوسط وقت التدريب عبر المهام باستخدام PJRT مقارنة بـ XRT، مع متوسط تحسن يزيد عن 35% على TPU v4-8.", "TorchBench"),
    ("tpu-queued-resources", "لاستخدام هذه الميزة، تأكد من تخصيص وحدة TPU الخاصة بك من خلال QueuedResource مع تمكين الحفظ التلقائي، وتأكد من تعيين معلمة chkpt_on_preemption عند إنشاء CheckpointManager.", "QueuedResource"),
    # https://github.com/nassersala/arabic-abstracts/blob/336fe3efbce32223bb63b0a51efbe22591f967a3/full_papers/2302.13971/06-carbon-related.md
    ("co2-equivalent", "هذا يعني أن تطوير هذه النماذج كان سيكلف حوالي 2,638 MWh بموجب افتراضاتنا، وانبعاث إجمالي قدره 1,015 tCO₂eq.", "tCO₂eq"),
    # https://github.com/microsoft/edgeai-for-beginners/blob/eaed6d682472297c26d0c70f8d109d2b8e237896/translations/ar/Module04/01.Introduce.md
    ("memory-footprint", "مقارنة بصمة الذاكرة: تقدم مستويات التكميم المختلفة توازنات متفاوتة بين حجم النموذج والجودة.", "بصمة الذاكرة"),
    # https://github.com/maljefairi/arabic-llm-course/blob/2f24ce9542be2eee5e4e85576b82cc98e01de64f/sections/05-moe.md
    ("router", MOE_AUX, "توجيه"),
    ("load-balancing", MOE_AUX, "الموازنة"),
    # https://github.com/Mahmoodsalah/llm-bootcamp/blob/601543052f0e2ab85e971da21bfeefaaac7454a4/src/lib/content/kvcache.tsx
    ("kv-cache", "وهذا أيضًا سبب أن السياقات الطويلة أبطأ وأغلى: انتباه كل رمز جديد يمسح كامل الذاكرة المؤقتة، وهي تلتهم الذاكرة التي يحتاجها التجميع. طول السياق مورد، وليس إعدادًا مجانيًا.", "الذاكرة المؤقتة"),
    # https://github.com/usufalbaz/AI-Project-p/blob/e71586124dbc4649d10b8a8e9d8a29c1e5790f30/src/data/chaptersPart3.ts
    ("policy-model", "المشكلة: تدريب PPO معقد جداً، غير مستقر، ويتطلب حفظ 4 نماذج في الذاكرة في آن واحد (Actor, Critic, Reference Model, Reward Model)!", "Actor"),
    # https://github.com/amd/playbooks/blob/00b6fae2024c80d57eca5d427e301876346b7d5b/auto-translations/ar/supplemental/clustering-rccl/README.md
    ("node", "يعمل أحد الأجهزة كـ عقدة رئيسية (الجهاز 1)، لتنسيق الاستدلال. وينضم الجهاز الآخر كـ عقدة عاملة (الجهاز 2)، مساهمًا بذاكرة GPU وقدرته الحوسبية.", "عقدة رئيسية"),
    # https://mostathmr.com/ar/themes/20033-nvidia-s-supercomputer-may-bring-on-a-new-era-of-chatgpt
    ("dgx", "DGX GH200 ، المجهز بذاكرة تزيد بنحو 500 مرة عن الأنظمة المألوفة لدينا.", "DGX GH200"),
    # https://github.com/amd/playbooks/blob/482eec838104d9df32ba635cfc3d3f684c5e904e/auto-translations/ar/supplemental/llama-factory-finetuning/README.md
    ("amd", "سنقوم بتحديث تهيئة الضبط الدقيق الافتراضية لـ LoRA لتحسين التوافق مع وحدات معالجة الرسومات AMD Ryzen™ و AMD Radeon™.", "AMD Ryzen"),
]

NEW_IDS = sorted({"tensor", "generative-ai", "ablation-study", "underfitting", "autograd", "gradient-compression", "powersgd",
                  "ddp-comm-hook", "pjrt", "xrt", "ai-factory", "simd", "dynamic-range", "kl-divergence", "instructgpt",
                  "koboldcpp", "text-generation-inference", "static-batching", "prefix-caching", "rng-state",
                  "recommender-system", "tp-parallel-style", "absmax-quantization", "keras", "tf-function", "pcb",
                  "orca-serving", "grpc", "torchbench", "tpu-queued-resources", "co2-equivalent", "memory-footprint"})


ids = detected


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round33b_term_found_in_a_real_sentence(term_id, sentence, found_as):
    found = ids(sentence)
    assert term_id in found, found
    assert found[term_id].lower() == found_as.lower(), found


def test_new_entries_are_complete_and_sourced():
    covered = {term_id for term_id, _, _ in REAL_SENTENCES}
    assert_entries_whole("long_tail_round33b.json", NEW_IDS, covered)


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_round33b_term_found_in_arabic_text(term_id):
    entry = glossary.load().by_id[term_id]
    rendering = entry["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in ids(text), (rendering, ids(text))


@pytest.mark.parametrize("text, not_id", [
    ("يعمل والدي في مصنع منسوجات قديم في المدينة.", "tensor"),
    ("تفخر الشركة بتصدير المنسوجات القطنية إلى دول الخليج.", "tensor"),
    ("يعاني المستشفى من نقص التجهيز ونقص الأطباء.", "underfitting"),
    ("The camera has a wide dynamic range for night photos.", "dynamic-range"),
    ("يتميز هذا التسجيل الصوتي بالنطاق الديناميكي الواسع.", "dynamic-range"),
    ("حفظت الموقع في الإشارات المرجعية في المتصفح.", "checkpoint"),
    ("هذا الفنان لا مثيل له، ولم أر مثيلين له في حياتي.", "replica"),
    ("حقق العداء الأداء الأقصى في السباق الأخير.", "peak-flops"),
    ("The F16 fighter jet flew low over the base.", "fp16"),
    ("We ate at TGI Fridays after the game.", "text-generation-inference"),
    ("The XRT settings of the FPGA board were updated.", "xrt"),
    ("درسنا أنماط التوازي في الشعر العربي القديم.", "tp-parallel-style"),
    ("فاز اللاعب ببطولة الوزن المفتوح في الجودو.", "open-weight-model"),
    ("تتكون الشبكة العصبية من طبقة التغذية الأمامية وطبقة الانتباه.", "forward-pass"),
    ("ثم جاء الترتيب النهائي للفرق في الدوري.", "rank"),
    ("بتوجيه من الخبراء أعدت الوزارة خطة جديدة للتعليم.", "router"),
    ("ناقش البرلمان الموازنة العامة للدولة مع الخبراء.", "load-balancing"),
    ("امسح الذاكرة المؤقتة للمتصفح ثم أعد تحميل الصفحة.", "kv-cache"),
    ("The actor won an award for his role in the film.", "policy-model"),
    ("عمل المترجم على نقل الرواية إلى العربية.", "xla"),
    ("The river was polluted with PCB from an old factory.", "pcb"),
    ("An Orca was seen swimming near the coast.", "orca-serving"),
])
def test_ordinary_word_keeps_its_ordinary_sense(text, not_id):
    assert not_id not in ids(text), ids(text)


def test_xla_compiler_found_beside_xla_words():
    # https://github.com/AhmedAlmaghz/MaghzDocs/blob/5184838ab31ed81e532838e9619dcb638effd947/public/markdown/torch-XLA/spmd_distributed_checkpoint.md
    text = "في وضع SPMD، لا يتم دعم backend \"xla\" لأن المترجم مسؤول عن جميع العمليات الجماعية."
    found = [(m.entry["id"], m.found_as) for m in glossary.load().find(text, extended=True)]
    assert ("xla", "المترجم") in found, found
