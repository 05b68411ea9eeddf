// One fit check: verdict and figures beside its chart, alternatives, and the working one click away.
import { el } from "./dom.js";
import { t, tf, gib, num, card, named } from "./i18n.js";
import { chart, legend, chartNote } from "./chart.js";

function fact(label, value) { return value === null || value === undefined ? null : [el("dt", {}, label), el("dd", {}, value)]; }
const hours = (h) => (h >= 48 ? `${num(h / 24)} d` : `${num(h)} h`);
const cny = (x) => `¥${num(x, 0)}`;

function facts(fc) {
  const s = fc.serving;
  const items = [
    fact(t("headroom"), gib(fc.headroom_bytes ?? fc.per_gpu_available_bytes - fc.per_gpu_required_bytes)),
    fact(t("minGpus"), fc.min_gpus === null ? t("none") : String(fc.min_gpus)),
    fact(t("decode"), fc.decode_tokens_per_s == null ? null : `${num(fc.decode_tokens_per_s)} tok/s`),
    fact(t("prefill"), fc.prefill_s == null ? null : `${num(fc.prefill_s, 2)} s`),
    fact(t("trainGpuH"), fc.train_gpu_hours == null ? null : num(fc.train_gpu_hours, 0)),
    fact(t("trainWallH"), fc.train_wall_hours == null ? null : hours(fc.train_wall_hours)),
    fact(t("capex"), fc.capex_cny == null ? null : cny(fc.capex_cny)),
    fact(t("energy"), fc.energy_cny == null ? null : cny(fc.energy_cny)),
    fact(t("costPerM"), fc.cost_per_million_tokens_cny == null ? null : `¥${num(fc.cost_per_million_tokens_cny, 2)}`),
    fact(t("power"), fc.power_w == null ? null : `${num(fc.power_w, 0)} W`),
    fact(t("energyHour"), fc.energy_cny_per_hour == null ? null : `¥${num(fc.energy_cny_per_hour, 2)}`),
    fact(t("activeParams"), fc.active_params == null || fc.active_params === fc.model_params ? null
      : `${num(fc.active_params / 1e9)} B / ${num(fc.model_params / 1e9)} B`),
    fact(t("kvPerToken"), fc.kv_bytes_per_token == null ? null : `${num(fc.kv_bytes_per_token / 1024, 0)} KiB`),
  ];
  if (s) {  // a check that does not fit has no speeds: those facts are left out, not shown as 0
    const has = (x) => x !== null && x !== undefined;
    items.push(fact(t("concurrency"), String(s.concurrency)), fact(t("contextTokens"), num(s.context_tokens, 0)),
      fact(t("kvCapacity"), `${num(s.kv_tokens_capacity, 0)} tokens`), fact(t("maxSeqs"), String(s.max_concurrent_sequences)),
      fact(t("aggDecode"), has(s.aggregate_decode_tokens_per_s) ? `${num(s.aggregate_decode_tokens_per_s)} tok/s` : null),
      fact(t("seqDecode"), has(s.per_sequence_decode_tokens_per_s) ? `${num(s.per_sequence_decode_tokens_per_s)} tok/s` : null),
      fact(t("ttft"), has(s.ttft_s) ? `${num(s.ttft_s, 2)} s` : null));
  }
  return el("dl", { class: "facts" }, items.filter(Boolean));
}

/** Nodes and links of a multi-node check: one box a node (the first 16), its GPUs and the links between. */
function topology(fc) {
  const lay = fc.layout;
  if (!lay || lay.nodes <= 1) return null;
  const shown = Math.min(lay.nodes, 16);
  const node = (i) => el("div", { class: "node", title: `${t("node")} ${i + 1}` },
    el("span", { class: "gpus" }, "▪".repeat(Math.min(lay.gpus_per_node, 8))), el("small", {}, named("links", lay.intra_node_link)));
  const boxes = [];
  for (let i = 0; i < shown; i++) {
    if (i) boxes.push(el("span", { class: "net", "aria-hidden": "true" }, "—"));
    boxes.push(node(i));
  }
  if (lay.nodes > shown) boxes.push(el("span", { class: "more" }, ` … ${num(lay.nodes, 0)} ${t("nodes")}`));
  const parts = [`TP ${lay.tp}`, lay.pp > 1 ? `PP ${lay.pp}` : null,
    fc.serving ? `${lay.dp} ${t("replicas")}` : `DP ${lay.dp}`, lay.ep > 1 ? `EP ${lay.ep}` : null,
    fc.serving ? null : `ZeRO-${lay.zero_stage}`].filter(Boolean).join(" × ");
  return el("figure", { class: "topology" }, el("div", { class: "nodes" }, boxes),
    el("figcaption", {}, `${num(lay.nodes, 0)} ${t("nodes")} × ${lay.gpus_per_node} GPU: ${parts}; `
      + `${t("between")} ${named("links", lay.inter_node_link)}`));
}

function alternatives(fc) {
  const alts = fc.alternatives || [];
  if (!alts.length) return null;
  const words = t("change");
  return el("div", { class: "alts" }, el("h4", {}, t("alternatives")), el("ul", {}, alts.map((a) => {
    const what = [named("workloads", a.workload), a.precision, a.gpu_count && `× ${a.gpu_count}`, a.zero_stage ? `ZeRO-${a.zero_stage}` : null]
      .filter(Boolean).join(" ");
    const mem = a.per_gpu_required_bytes == null ? "" : ` (${gib(a.per_gpu_required_bytes)}`
      + (a.per_gpu_available_bytes == null ? ")" : ` / ${gib(a.per_gpu_available_bytes)})`);
    return el("li", { class: a.fits ? "ok" : "bad" }, `${words[a.change] || a.change}: ${what} — `,
      a.fits ? t("altFits") : t("altNoFit"), mem);
  })));
}

// The working; what it cites is named by the answer's own markers ([2] is the answer's second passage).
function working(fc, passages) {
  const ids = (passages || []).map((p) => p.id);
  const cited = (fc.citations || []).map((c) => ids.indexOf(c) + 1).filter((n) => n > 0);
  return el("details", { class: "working" }, el("summary", {}, t("working")),
    el("h4", {}, t("assumptions")), el("ul", {}, (fc.assumptions || []).map((a) => el("li", {}, a))),
    el("h4", {}, t("steps")), el("ol", {}, (fc.steps || []).map((s) => el("li", {}, s))),
    cited.length ? el("p", {}, `${t("citations")}: ${cited.map((n) => `[${n}]`).join(" ")}`) : null);
}

/** An <article> for fit check `index` (1-based; the answer's [F<index>] marker links to #fit-<index>); `passages`
 * are the answer's, which its working cites. */
export function fitCard(fc, index, onTry, passages) {
  const id = `fit-${index}`;
  const verdict = el("p", { class: `verdict ${fc.fits ? "ok" : "bad"}` }, fc.fits ? t("fits") : t("noFit"),
    ` — ${gib(fc.per_gpu_required_bytes)} / ${gib(fc.per_gpu_available_bytes)} ${t("perGpu")}`);
  const title = `${fc.model} · ${named("workloads", fc.workload)} · ${fc.precision} · ${fc.gpu_count} × ${card(fc.gpu)}`
    + (fc.zero_stage ? ` · ZeRO-${fc.zero_stage}` : "") + ` · seq ${fc.seq_len}`;
  return el("article", { class: "fit", id, tabindex: "-1", "aria-labelledby": `${id}-h`, dataset: {
    required: String(fc.per_gpu_required_bytes), available: String(fc.per_gpu_available_bytes) } },
    el("h3", { id: `${id}-h` }, index ? `${tf("fitTitle", { i: index })}: ${title}` : title),
    el("div", { class: "fit-body" },
      el("figure", { class: "fit-chart" }, chart(fc, id), chartNote(fc), legend(fc)),
      el("div", { class: "fit-side" }, verdict, facts(fc), topology(fc), alternatives(fc),
        onTry ? el("button", { type: "button", class: "try", on: { click: () => onTry(fc) } }, t("tryThis")) : null)),
    working(fc, passages));
}
