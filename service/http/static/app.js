// unjargon web page: streams answers over server-sent events, shows history, terms, working and charts.
// Text from the reader or the model goes in with textContent; the only HTML inserted is what the server
// rendered and sanitised (nh3) in the final event.
"use strict";

(function () {
  const TOKEN_KEY = "unjargon-token";
  const CHART_FIELDS = ["model", "chip", "global_batch_tokens", "n_chips", "tp_degree", "pp_degree", "ep_degree",
    "moe_experts", "moe_top_k", "n_layers", "peak_flop_per_s", "dp_bandwidth_bytes_per_s", "chips_per_node"];
  // What-if fields that a chip or a model fills when left empty; the panel shows the value used as a placeholder.
  const CHIP_FILLED = ["peak_flop_per_s", "dp_bandwidth_bytes_per_s", "chips_per_node"];
  const CHART_MIN_WIDTH = 256, CHART_MAX_WIDTH = 680; // the widths /v1/chart draws for
  const NARROW = window.matchMedia("(max-width: 52rem)"); // where the history sits above the conversation
  const MODEL_FILLED = ["moe_experts", "moe_top_k", "n_layers"];
  const $ = (id) => document.getElementById(id);
  const state = { conversation: null, busy: false, chartUrl: null, whatifTimer: null,
    lang: document.documentElement.lang || "en", charts: new Set(), whatifMirrorsAnswer: false };
  // The page's words in every language (data/locale "page"), so the page turns to the language of the answer.
  const PAGE = JSON.parse(document.getElementById("page-words").textContent);

  function t(key) {
    const own = (PAGE[state.lang] || {}).words || {};
    return own[key] !== undefined ? own[key] : (PAGE.en ? PAGE.en.words[key] : key);
  }

  function setLanguage(code) {
    if (!code || !PAGE[code] || code === state.lang) return;
    state.lang = code;
    document.documentElement.lang = code;
    document.documentElement.dir = PAGE[code].dir || "ltr";
    for (const node of document.querySelectorAll("[data-ui]")) node.textContent = t(node.dataset.ui);
    for (const node of document.querySelectorAll("[data-ui-alt]")) node.alt = t(node.dataset.uiAlt);
    for (const button of document.querySelectorAll("button.copy")) button.textContent = t("copy");
    scheduleWhatIf(); // its verdict and chart labels are in the page's language
  }

  class AuthNeeded extends Error {}

  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  }

  function askForToken() {
    $("token-form").hidden = false;
    $("token").focus();
  }

  async function api(path, options = {}) {
    const headers = new Headers(options.headers || {});
    if (token()) headers.set("Authorization", "Bearer " + token());
    if (options.json !== undefined) {
      headers.set("Content-Type", "application/json");
      options = { ...options, body: JSON.stringify(options.json) };
    }
    const response = await fetch(path, { ...options, headers, credentials: "same-origin", cache: "no-store" });
    if (response.status === 401) {
      askForToken();
      throw new AuthNeeded(t("token_needed"));
    }
    if (!response.ok) {
      let message = response.status + " " + response.statusText;
      try {
        const body = await response.json();
        if (body && body.error && body.error.message) message = body.error.message;
      } catch (e) { /* not JSON */ }
      throw new Error(message);
    }
    return response;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A warning whose substance (after its label and ";") the explanation states already is not shown twice
  // (service/explain/unsaid.py is the same rule for the CLI).
  function saidAlready(warning, explanation) {
    const squeeze = (text) => String(text || "").split(/\s+/).join(" ").trim().toLowerCase();
    const label = /[;؛]\s+/.exec(String(warning));
    const substance = squeeze(label ? String(warning).slice(label.index + label[0].length) : warning).replace(/\.$/, "");
    return substance.length >= 30 && squeeze(explanation).includes(substance);
  }

  function setStatus(text) {
    $("status").textContent = text || "";
  }

  // ---- server-sent events over fetch ------------------------------------------------------------

  async function* events(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
        let type = "message";
        const data = [];
        for (const line of block.split(/\r?\n/)) {
          if (line.startsWith(":")) continue; // keep-alive comment
          if (line.startsWith("event:")) type = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) yield { type, data: JSON.parse(data.join("\n")) };
      }
    }
  }

  // ---- messages -----------------------------------------------------------------------------------

  function userMessage(text) {
    const node = element("div", "message user");
    node.dir = "auto";
    node.appendChild(element("div", "content", text));
    $("messages").appendChild(node);
    return node;
  }

  function assistantMessage() {
    const node = element("article", "message assistant");
    node.dir = "auto";
    const explanation = element("div", "explanation streaming");
    explanation.dir = "auto";
    node.appendChild(explanation);
    $("messages").appendChild(node);
    return node;
  }

  async function copy(text, button) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
      } else { // plain http: the old way still works
        const area = element("textarea", "offscreen");
        area.value = text;
        document.body.appendChild(area);
        area.select();
        document.execCommand("copy");
        area.remove();
      }
      button.textContent = t("copied");
    } catch (e) {
      button.textContent = t("copy_failed");
    }
    setTimeout(() => { button.textContent = t("copy"); }, 1500);
  }

  // On a phone each table row becomes a card (app.css): every cell carries its column's name to show beside it,
  // and its content goes in one box so the name and the value are the two columns of the card's line.
  function labelTableCells(root) {
    for (const table of root.querySelectorAll("table")) {
      const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
      for (const row of table.querySelectorAll("tbody tr")) {
        [...row.children].forEach((cell, index) => {
          cell.dataset.label = names[index] || "";
          const content = element("span", "cell");
          content.append(...cell.childNodes);
          cell.appendChild(content);
        });
      }
    }
  }

  function firstPipelineCheck(result) {
    return (result.calculations || []).find((c) => c.calculator === "pp_necessity");
  }

  // The chart is drawn for the width of its box (a phone's 330 px or the desktop's 680), so its text stays readable.
  function chartWidth(img) {
    const box = img.parentElement ? img.parentElement.clientWidth : 0;
    return Math.round(Math.max(CHART_MIN_WIDTH, Math.min(CHART_MAX_WIDTH, box || CHART_MAX_WIDTH)));
  }

  function chartQuery(inputs, lang) {
    const query = new URLSearchParams();
    for (const field of CHART_FIELDS) {
      if (inputs[field] !== undefined && inputs[field] !== null && inputs[field] !== "") query.set(field, String(inputs[field]));
    }
    if (lang && lang !== "en") query.set("lang", lang);
    return query;
  }

  async function chartInto(img, query) {
    query.set("width", String(chartWidth(img)));
    img.dataset.query = query.toString(); // to draw it again for a new width (a phone turned sideways)
    const response = await api("/v1/chart?" + query.toString());
    const blob = await response.blob();
    const url = URL.createObjectURL(blob);
    const old = img.dataset.url;
    img.src = url;
    img.dataset.url = url;
    if (old) URL.revokeObjectURL(old);
  }

  function finish(node, result) {
    setLanguage(result.language);
    node.replaceChildren();
    const explanation = element("div", "explanation");
    explanation.dir = "auto";
    explanation.lang = result.language || "";
    explanation.innerHTML = result.html; // rendered and sanitised by the server (markdown-it, then nh3)
    labelTableCells(explanation);
    node.appendChild(explanation);
    if (result.warnings && result.warnings.length) {
      const list = element("ul", "warnings");
      list.dir = "auto";
      for (const warning of result.warnings) {
        if (!saidAlready(warning, result.explanation)) list.appendChild(element("li", "", warning));
      }
      node.appendChild(list);
    }
    let calculations = null;
    if (result.calculations_html) {
      calculations = element("div", "calculations");
      calculations.innerHTML = result.calculations_html; // sanitised by the server
      node.appendChild(calculations);
    }
    const check = firstPipelineCheck(result);
    if (check) {
      // The chart belongs to the first pipeline check's card, and the page never shows the same chart twice.
      const query = chartQuery(check.inputs, result.language);
      const key = chartQuery(check.inputs, "").toString();
      if (!state.charts.has(key)) {
        state.charts.add(key);
        const figure = element("figure", "chart");
        const img = element("img");
        img.className = "answer-chart";
        img.width = 680;
        img.height = 400;
        img.alt = t("chart_alt");
        img.dataset.uiAlt = "chart_alt";
        figure.appendChild(img);
        const card = calculations && calculations.querySelector('section.calculation[data-calculator="pp_necessity"]');
        const before = card && card.querySelector("details.working");
        if (before) card.insertBefore(figure, before);
        else if (card) card.appendChild(figure);
        else node.appendChild(figure);
        chartInto(img, query).catch(() => figure.remove());
      }
      syncWhatIf(check.inputs, check.input_sources);
    }
    const actions = element("div", "actions");
    const button = element("button", "copy", t("copy"));
    button.type = "button";
    button.addEventListener("click", () => copy(result.explanation || "", button));
    actions.appendChild(button);
    node.appendChild(actions);
  }

  function failed(node, message) {
    const note = element("p", "error", message);
    note.dir = "auto";
    node.appendChild(note);
  }

  async function send(text) {
    if (state.busy) return;
    state.busy = true;
    $("send").disabled = true;
    setStatus(t("explaining"));
    userMessage(text);
    const node = assistantMessage();
    const live = node.querySelector(".explanation");
    let streamed = "";
    try {
      if (!state.conversation) {
        const created = await api("/v1/conversations", { method: "POST", json: {} });
        state.conversation = (await created.json()).id;
      }
      const body = { content: text };
      if ($("lang").value) body.lang = $("lang").value;
      const response = await api("/v1/conversations/" + encodeURIComponent(state.conversation) + "/messages", {
        method: "POST", json: body, headers: { Accept: "text/event-stream" },
      });
      for await (const event of events(response)) {
        if (event.type === "delta") {
          streamed += event.data.text;
          live.textContent = streamed; // plain text while it streams
        } else if (event.type === "done") {
          finish(node, event.data);
        } else if (event.type === "error") {
          failed(node, event.data.error ? event.data.error.message : t("failed"));
        }
      }
      $("input").value = "";
      setStatus("");
      loadHistory();
    } catch (error) {
      failed(node, error.message);
      setStatus(error instanceof AuthNeeded ? error.message : "");
    } finally {
      state.busy = false;
      $("send").disabled = false;
    }
  }

  // ---- history ------------------------------------------------------------------------------------

  async function loadHistory() {
    let items;
    try {
      items = (await (await api("/v1/conversations?limit=50")).json()).conversations;
    } catch (e) {
      return;
    }
    const list = $("history");
    list.replaceChildren();
    $("history-count").textContent = items.length ? "(" + items.length + ")" : "";
    for (const item of items) {
      const entry = element("li");
      const button = element("button", "conversation", item.title || t("untitled"));
      button.type = "button";
      button.dir = "auto";
      if (item.id === state.conversation) button.setAttribute("aria-current", "true");
      button.addEventListener("click", () => openConversation(item.id));
      entry.appendChild(button);
      list.appendChild(entry);
    }
  }

  async function openConversation(id) {
    if (NARROW.matches) $("history-fold").open = false; // the conversation, not the list, fills a phone's screen
    try {
      const conversation = await (await api("/v1/conversations/" + encodeURIComponent(id))).json();
      state.conversation = conversation.id;
      $("messages").replaceChildren();
      state.charts.clear();
      for (const message of conversation.messages) {
        if (message.role === "user") {
          userMessage(message.content || "");
        } else if (message.html !== undefined) {
          finish(assistantMessage(), { ...message.result, html: message.html, calculations_html: message.calculations_html });
        } else {
          const node = assistantMessage();
          node.querySelector(".explanation").textContent = message.content || "";
          if (message.error) failed(node, message.error);
        }
      }
      loadHistory();
    } catch (error) {
      setStatus(error.message);
    }
  }

  // ---- terms: the definition on hover (title) or on tap (popover) ---------------------------------------

  function showDefinition(abbr) {
    const popover = $("popover");
    popover.textContent = abbr.getAttribute("title") || "";
    const box = abbr.getBoundingClientRect();
    popover.hidden = false;
    popover.classList.add("shown");
    const top = window.scrollY + box.bottom + 6;
    const left = Math.max(8, Math.min(window.scrollX + box.left, window.scrollX + document.documentElement.clientWidth - popover.offsetWidth - 8));
    popover.style.top = top + "px"; // CSSOM, not an inline style attribute: allowed by the CSP
    popover.style.left = left + "px";
  }

  function hideDefinition() {
    $("popover").hidden = true;
  }

  document.addEventListener("click", (event) => {
    const abbr = event.target.closest && event.target.closest("abbr.term");
    if (abbr) showDefinition(abbr);
    else hideDefinition();
  });
  document.addEventListener("keydown", (event) => {
    const abbr = event.target.closest && event.target.closest("abbr.term");
    if (abbr && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      showDefinition(abbr);
    } else if (event.key === "Escape") {
      hideDefinition();
    }
  });

  // ---- what-if panel --------------------------------------------------------------------------------

  function fill(select, entries, chosen) {
    select.replaceChildren();
    for (const entry of entries) {
      const option = element("option", "", entry.name);
      option.value = entry.id;
      select.appendChild(option);
    }
    if (chosen) select.value = chosen;
  }

  function whatIfField(name) {
    return $("whatif-form").querySelector(`[name="${name}"]`);
  }

  // Every input the panel's calculation uses is one of its visible fields; nothing is carried over unseen.
  function whatIfInputs() {
    const inputs = {};
    for (const control of $("whatif-form").querySelectorAll("[name]")) {
      const value = control.value.trim();
      if (value !== "") inputs[control.name] = value;
    }
    return inputs;
  }

  function showUsedInputs(used) {
    // An empty field takes the chip's or model's figure: show which one the calculation used.
    for (const name of CHART_FIELDS) {
      const control = whatIfField(name);
      if (control && control.tagName === "INPUT") {
        control.placeholder = used[name] === undefined || used[name] === null ? "" : compact(used[name]);
      }
    }
  }

  function verdictText(result) {
    const outputs = result.outputs, pp = Number((result.inputs || {}).pp_degree || 1);
    if (!outputs.dp_comm_bound) return pp > 1 ? t("pp_with").replace("{pp}", pp) : t("pp_ok");
    if (outputs.min_pp_degree) return t("pp_bound").replace("{p}", outputs.min_pp_degree);
    return t("pp_unfixable");
  }

  function showWhatIfChart() {
    // While the panel holds an answer's own values, its chart is the answer's: say so rather than draw it again.
    $("whatif-chart").hidden = state.whatifMirrorsAnswer;
    $("whatif-same").hidden = !state.whatifMirrorsAnswer;
  }

  async function redrawWhatIf() {
    const inputs = whatIfInputs();
    const verdict = $("whatif-verdict");
    showWhatIfChart();
    try {
      const result = await (await api("/v1/calculators/pp_necessity", { method: "POST", json: inputs })).json();
      verdict.textContent = verdictText(result);
      verdict.classList.toggle("bound", Boolean(result.outputs.dp_comm_bound));
      showUsedInputs(result.inputs || {});
      if (!state.whatifMirrorsAnswer) await chartInto($("chart"), chartQuery(inputs, state.lang));
    } catch (error) {
      verdict.textContent = error.message;
    }
  }

  function scheduleWhatIf() {
    clearTimeout(state.whatifTimer);
    state.whatifTimer = setTimeout(redrawWhatIf, 250);
  }

  function compact(value) {
    const n = Number(value);
    if (!Number.isFinite(n)) return String(value);
    for (const [size, suffix] of [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]]) {
      if (n >= size && Number.isInteger(n / size * 1000)) return String(n / size) + suffix;
    }
    return String(n);
  }

  // The panel takes every input of the answer's calculation: the model and chip, and each figure the text gave or
  // the explainer assumed (a degree, an override); figures the chip or model supplied stay empty and show as placeholders.
  function syncWhatIf(inputs, sources) {
    $("wi-model").value = inputs.model || "";
    $("wi-chip").value = inputs.chip || "";
    $("wi-batch").value = inputs.global_batch_tokens ? compact(inputs.global_batch_tokens) : "";
    $("wi-chips").value = inputs.n_chips ? String(inputs.n_chips) : "";
    let more = false;
    for (const name of CHART_FIELDS.slice(4)) {
      const control = whatIfField(name), value = inputs[name];
      if (!control) continue;
      const fromCatalog = sources && sources[name] && sources[name].source === "catalog";
      control.value = value === undefined || value === null || fromCatalog ? "" : compact(value);
      if (control.value && (CHIP_FILLED.includes(name) || MODEL_FILLED.includes(name))) more = true;
    }
    if (more) $("wi-more").open = true;
    state.whatifMirrorsAnswer = true;
    showWhatIfChart();
    scheduleWhatIf();
  }

  async function startWhatIf() {
    try {
      const catalog = await (await api("/v1/calculators")).json();
      fill($("wi-model"), catalog.models, "llama-3-70b");
      fill($("wi-chip"), catalog.chips, "h100-sxm");
      redrawWhatIf();
    } catch (e) { /* shown when the token arrives */ }
  }

  // A chart drawn for a box that has since grown or shrunk much is drawn again for the box it is in now.
  function redrawResizedCharts() {
    for (const img of document.querySelectorAll("img[data-query]")) {
      const query = new URLSearchParams(img.dataset.query);
      if (img.offsetParent !== null && Math.abs(chartWidth(img) - Number(query.get("width"))) > 24) {
        chartInto(img, query).catch(() => {});
      }
    }
  }

  // ---- wiring -------------------------------------------------------------------------------------

  // The server chose the page's language from ?lang= or Accept-Language; a browser that sent neither still
  // gets its own language when the page has it.
  function browserLanguage() {
    for (const tag of navigator.languages || [navigator.language]) {
      const parts = String(tag || "").toLowerCase().split("-");
      while (parts.length) {
        if (PAGE[parts.join("-")]) return parts.join("-");
        parts.pop();
      }
    }
    return null;
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (document.body.dataset.langChosen === "default") setLanguage(browserLanguage());
    $("history-fold").open = !NARROW.matches;
    NARROW.addEventListener("change", (event) => { $("history-fold").open = !event.matches; }); // a phone turned sideways
    let resizing = null;
    window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(redrawResizedCharts, 300); });
    $("ask").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("input").value;
      if (text.trim()) send(text);
    });
    $("new-chat").addEventListener("click", () => {
      state.conversation = null;
      $("messages").replaceChildren();
      state.charts.clear();
      if (state.whatifMirrorsAnswer) {
        state.whatifMirrorsAnswer = false;
        scheduleWhatIf();
      }
      loadHistory();
      $("input").focus();
    });
    $("token-form").addEventListener("submit", (event) => {
      event.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
      $("token").value = "";
      $("token-form").hidden = true;
      setStatus("");
      loadHistory();
      startWhatIf();
    });
    $("whatif-form").addEventListener("input", (event) => {
      // Figures a chip or model supplied belong to it: a new choice clears them (the placeholders show the new ones).
      const cleared = event.target.id === "wi-model" ? MODEL_FILLED : event.target.id === "wi-chip" ? CHIP_FILLED : [];
      for (const name of cleared) whatIfField(name).value = "";
      state.whatifMirrorsAnswer = false;
      scheduleWhatIf();
    });
    $("whatif-form").addEventListener("submit", (event) => event.preventDefault());
    $("lang").addEventListener("change", () => setLanguage($("lang").value));
    if (document.body.dataset.auth === "required" && !token()) {
      askForToken(); // nothing to ask the API until the token is there
      return;
    }
    loadHistory();
    startWhatIf();
  });
})();
