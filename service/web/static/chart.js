// A fit check as a picture: one stacked bar per GPU (each term's bytes on that GPU) against the card's capacity.
import { svg, el } from "./dom.js";
import { t, tf, gib, card } from "./i18n.js";

export const TERMS = ["weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"];
const MAX_BARS = 8;  // more GPUs than this hold the same share each: drawing them all says nothing more

/** The per-GPU terms: the engine's own per_gpu_breakdown; with only totals, a single GPU's totals. */
export function perGpuTerms(fc) {
  if (fc.per_gpu_breakdown) return TERMS.map((k) => [k, fc.per_gpu_breakdown[k] || 0]);
  if (fc.gpu_count === 1 && fc.breakdown) return TERMS.map((k) => [k, fc.breakdown[k] || 0]);
  return [["required", fc.per_gpu_required_bytes]];
}

export function chart(fc, id) {
  const terms = perGpuTerms(fc).filter(([, v]) => v > 0);
  const need = fc.per_gpu_required_bytes, cap = fc.per_gpu_available_bytes;
  const bars = Math.min(fc.gpu_count, MAX_BARS);
  const W = 420, H = 220, top = 24, bottom = 30, left = 8, right = 8;
  const plotH = H - top - bottom, scale = plotH / (Math.max(need, cap) * 1.06 || 1);
  const slot = (W - left - right) / bars, barW = Math.min(56, slot * 0.7);
  const label = tf("chartLabel", { model: fc.model, gpu_count: fc.gpu_count, gpu: card(fc.gpu), need: gib(need), cap: gib(cap) });
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": `${id}-title ${id}-desc` },
    svg("title", { id: `${id}-title` }, label),
    svg("desc", { id: `${id}-desc` }, terms.map(([k, v]) => `${t("terms")[k] || k} ${gib(v)}`).join("; ")));
  for (let g = 0; g < bars; g++) {
    const x = left + g * slot + (slot - barW) / 2;
    const bar = svg("g", { class: "bar", dataset: { gpu: String(g + 1) } });
    let y = top + plotH;
    for (const [k, v] of terms) {
      const h = v * scale;
      y -= h;
      bar.append(svg("rect", { class: `seg seg-${k}`, x, y, width: barW, height: Math.max(h, 0.5),
                               dataset: { term: k, bytes: String(v) } },
        svg("title", {}, `${t("terms")[k] || k}: ${gib(v)}`)));
    }
    bar.append(svg("text", { x: x + barW / 2, y: H - 14, class: "axis", "text-anchor": "middle" }, `GPU ${g + 1}`));
    root.append(bar);
  }
  const capY = top + plotH - cap * scale;
  root.append(svg("line", { class: "capacity", x1: left, x2: W - right, y1: capY, y2: capY }),
    svg("text", { class: "cap-label", x: W - right, y: capY - 6, "text-anchor": "end" }, `${t("capacity")} ${gib(cap)}`),
    svg("line", { class: "baseline", x1: left, x2: W - right, y1: top + plotH, y2: top + plotH }));
  return root;
}

/** The text equivalent, and the legend: each term's bytes on one GPU, then the total against capacity. */
export function legend(fc) {
  const rows = perGpuTerms(fc).filter(([, v]) => v > 0).map(([k, v]) => el("tr", {},
    el("th", { scope: "row" }, el("span", { class: `swatch seg-${k}`, "aria-hidden": "true" }), t("terms")[k] || k),
    el("td", { dataset: { bytes: String(v) } }, gib(v))));
  return el("table", { class: "legend" },
    el("caption", {}, `${t("perGpu")} (${card(fc.gpu)})`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("term")), el("th", { scope: "col" }, t("perGpu")))),
    el("tbody", {}, rows),
    el("tfoot", {},
      el("tr", {}, el("th", { scope: "row" }, t("terms").required), el("td", {}, gib(fc.per_gpu_required_bytes))),
      el("tr", {}, el("th", { scope: "row" }, t("capacity")), el("td", {}, gib(fc.per_gpu_available_bytes)))));
}

export function chartNote(fc) {
  return fc.gpu_count > MAX_BARS ? el("p", { class: "hint" }, tf("shownOf", { n: MAX_BARS, m: fc.gpu_count })) : null;
}
