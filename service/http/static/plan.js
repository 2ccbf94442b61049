// The plan view: runs plan_layout as the reader edits the job, shows the choice, the runner-ups and the bars.
// Everything from the server goes in with textContent; the bars are an SVG image fetched with the token.
"use strict";

(function () {
  const TOKEN_KEY = "unjargon-token";
  const PAGE = JSON.parse(document.getElementById("page-words").textContent);
  const $ = (id) => document.getElementById(id);
  const state = { lang: document.documentElement.lang || "en", timer: null, barsUrl: null, request: 0 };
  const TIME_PARTS = ["compute", "pp_bubble", "tp_comm", "dp_comm", "ep_comm", "cp_comm"];

  function t(key) {
    const own = (PAGE[state.lang] || {}).words || {};
    return own[key] !== undefined ? own[key] : (PAGE.en ? PAGE.en.words[key] : key);
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (_, name) => (values[name] !== undefined ? values[name] : ""));
  }

  function setLanguage(code) {
    if (!PAGE[code]) return;
    state.lang = code;
    document.documentElement.lang = code;
    document.documentElement.dir = PAGE[code].dir || "ltr";
    for (const node of document.querySelectorAll("[data-ui]")) node.textContent = t(node.dataset.ui);
    for (const node of document.querySelectorAll("[data-ui-alt]")) node.alt = t(node.dataset.uiAlt);
  }

  async function api(path, options = {}) {
    const headers = new Headers(options.headers || {});
    const token = sessionStorage.getItem(TOKEN_KEY) || "";
    if (token) headers.set("Authorization", "Bearer " + token);
    if (options.json !== undefined) {
      headers.set("Content-Type", "application/json");
      options = { ...options, body: JSON.stringify(options.json) };
    }
    const response = await fetch(path, { ...options, headers, credentials: "same-origin", cache: "no-store" });
    if (response.status === 401) {
      $("token-form").hidden = false;
      throw new Error(t("token_needed"));
    }
    if (!response.ok) {
      let message = response.status + " " + response.statusText;
      try { message = (await response.json()).error.message; } catch (_) { /* not JSON */ }
      throw new Error(message);
    }
    return response;
  }

  function inputs() {
    const job = {};
    for (const field of new FormData($("job")).entries()) {
      if (String(field[1]).trim()) job[field[0]] = String(field[1]).trim();
    }
    return job;
  }

  function percent(x) { return (100 * x).toFixed(1) + "%"; }

  function gigabytes(x) { return (x / 1e9).toFixed(1) + " GB"; }

  function compact(layout) {
    const parts = [];
    for (const [key, label] of [["tp_degree", "TP"], ["cp_degree", "CP"], ["pp_degree", "PP"], ["ep_degree", "EP"], ["dp_degree", "DP"]]) {
      if ((layout[key] || 1) > 1) parts.push(label + layout[key] + (key === "pp_degree" && layout.virtual_stages > 1 ? "/v" + layout.virtual_stages : ""));
    }
    if (layout.zero_stage) parts.push(layout.zero_stage === 3 ? "FSDP" : "ZeRO-" + layout.zero_stage);
    if (layout.micro_batch) parts.push("mb" + layout.micro_batch);
    return parts.join(" · ") || "1 chip";
  }

  // Why a runner-up lost, in the page's language: a simpler layout preferred, or the part of the step that grew most.
  function whyLost(chosen, other) {
    if (!other.fits_memory) return t("does_not_fit");
    if (other.margin < 0) return t("simpler_preferred");
    if (other.margin < 0.03) return t("tie"); // within 3% is a tie: no cause for a gap that is not there
    let worst = null, grew = 0;
    for (const part of TIME_PARTS) {
      const delta = (other.time_breakdown_s[part] || 0) - (chosen.time_breakdown_s[part] || 0);
      if (delta > grew) { grew = delta; worst = part; }
    }
    return worst ? fill(t("lost_to"), { part: t(worst), seconds: grew.toPrecision(3) }) : t("slower");
  }

  function show(result) {
    const out = result.outputs;
    // A layout that does not fit is never called chosen: the heading says none fits, and from how many chips one does.
    document.querySelector('[data-ui="chosen"]').textContent = out.fits_memory ? t("chosen") : t("none_fits");
    const fitsFrom = out.no_fit && out.no_fit.min_chips ? fill(t("fits_from"), { n: out.no_fit.min_chips.toLocaleString("en") }) : t("least_memory");
    $("chosen").textContent = compact(out.layout) + (out.fits_memory ? "" : " — " + fitsFrom);
    const figures = $("figures");
    figures.replaceChildren();
    const rows = [["mfu", percent(out.mfu)], ["tokens_per_chip", Math.round(out.tokens_per_s_per_chip).toLocaleString("en")],
      ["step_time", out.step_time_s.toPrecision(3) + " s"],
      ["memory_per_chip", gigabytes(out.memory_bytes_per_chip) + " (" + percent(out.memory_fraction_of_hbm) + ")"],
      ["binding", t(out.binding_constraint)]];
    for (const [key, value] of rows) {
      const term = document.createElement("dt");
      term.textContent = t(key);
      const detail = document.createElement("dd");
      detail.textContent = value;
      detail.dir = key === "binding" ? "auto" : "ltr";
      figures.append(term, detail);
    }
    const list = $("runner-ups");
    list.replaceChildren();
    for (const other of out.runner_ups || []) {
      const item = document.createElement("li");
      const name = document.createElement("div");
      name.className = "layout-name";
      name.dir = "ltr";
      name.textContent = compact(other.layout);
      const detail = document.createElement("div");
      detail.dir = (PAGE[state.lang] || {}).dir || "ltr"; // the sentence is in the page's language, figures isolated
      const margin = (other.margin >= 0 ? "−" : "+") + percent(Math.abs(other.margin));
      const isolate = (text) => "\u2066" + text + "\u2069"; // left-to-right isolates keep figures whole in Arabic
      detail.textContent = fill(t("runner_up_line"), { mfu: isolate(percent(other.mfu)), margin: isolate(margin), why: whyLost(out, other) });
      item.append(name, detail);
      list.append(item);
    }
    $("considered").textContent = fill(t("considered"), { n: out.layouts_considered.toLocaleString("en") });
    $("result").hidden = false;
  }

  async function plan() {
    const request = ++state.request;
    const job = inputs();
    $("status").textContent = t("planning");
    try {
      const result = await (await api("/v1/calculators/plan_layout", { method: "POST", json: job })).json();
      if (request !== state.request) return; // a newer edit is on its way
      show(result);
      // drawn for the width of its box (a phone's 358 px or the desktop's 760), so its labels stay readable
      state.barsWidth = barsWidth();
      const query = new URLSearchParams({ ...job, lang: state.lang, width: String(state.barsWidth) });
      const blob = await (await api("/v1/plan.svg?" + query.toString())).blob();
      if (request !== state.request) return;
      if (state.barsUrl) URL.revokeObjectURL(state.barsUrl);
      state.barsUrl = URL.createObjectURL(blob);
      $("bars").src = state.barsUrl;
      $("status").textContent = "";
    } catch (error) {
      if (request === state.request) $("status").textContent = error.message;
    }
  }

  function barsWidth() {
    return Math.round(Math.max(300, Math.min(760, $("bars").parentElement.clientWidth || 760)));
  }

  function schedule() {
    clearTimeout(state.timer);
    state.timer = setTimeout(plan, 350);
  }

  $("job").addEventListener("input", schedule);
  // bars drawn for a box that has since grown or shrunk much (a phone turned sideways) are drawn again
  window.addEventListener("resize", () => { if (state.barsWidth && Math.abs(barsWidth() - state.barsWidth) > 24) schedule(); });
  $("job").addEventListener("submit", (event) => { event.preventDefault(); plan(); });
  $("lang").addEventListener("change", (event) => { setLanguage(event.target.value); schedule(); });
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
    $("token-form").hidden = true;
    plan();
  });
  plan();
})();
