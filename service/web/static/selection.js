// A budget question's ranked configurations as a table sortable by any column (header buttons, keyboard too).
import { el } from "./dom.js";
import { t, gib, num, card } from "./i18n.js";

function columns(sel) {
  const training = sel.workload !== "inference";
  return [
    ["gpu", "selGpu", (r) => card(r.gpu)],
    ["gpu_count", "selCount", (r) => String(r.gpu_count)],
    ["capex_cny", "selCapex", (r) => num(r.capex_cny, 0)],
    training ? ["train_wall_hours", "selTrain", (r) => (r.train_wall_hours == null ? "—" : num(r.train_wall_hours))]
      : ["decode_tokens_per_s", "selDecode", (r) => (r.decode_tokens_per_s == null ? "—" : num(r.decode_tokens_per_s))],
    ["per_gpu_required_bytes", "selNeed", (r) => (r.per_gpu_required_bytes == null ? "—" : gib(r.per_gpu_required_bytes))],
    ["per_gpu_available_bytes", "selHave", (r) => (r.per_gpu_available_bytes == null ? "—" : gib(r.per_gpu_available_bytes))],
    training ? null : ["replicas", "selReplicas", (r) => (r.replicas == null ? "—" : String(r.replicas))],
    ["rank_by_time", "selRankTime", (r) => String(r.rank_by_time)],
    ["rank_by_cost", "selRankCost", (r) => String(r.rank_by_cost)],
  ].filter(Boolean);
}

function compare(key, dir) {
  return (a, b) => {
    const x = a[key], y = b[key];
    if (x == null || y == null) return (x == null) - (y == null);
    return (typeof x === "string" ? x.localeCompare(y) : x - y) * dir;
  };
}

export function selectionTable(sel) {
  const cols = columns(sel);
  const tbody = el("tbody");
  const state = { key: "rank_by_cost", dir: 1 };
  const heads = cols.map(([key, label]) => {
    const th = el("th", { scope: "col", "aria-sort": key === state.key ? "ascending" : "none" });
    th.append(el("button", { type: "button", class: "sort", dataset: { key },
      "aria-label": `${t("sortBy")} ${t(label)}`, on: { click: () => sortBy(key) } }, t(label)));
    return th;
  });
  function draw() {
    const rows = [...sel.rows].sort(compare(state.key, state.dir));
    tbody.replaceChildren(...rows.map((r) => el("tr", {}, cols.map(([key, , show], i) =>
      (i === 0 ? el("th", { scope: "row" }, show(r)) : el("td", { dataset: { key } }, show(r)))))));
    heads.forEach((th, i) => th.setAttribute("aria-sort",
      cols[i][0] === state.key ? (state.dir > 0 ? "ascending" : "descending") : "none"));
  }
  function sortBy(key) {
    state.dir = state.key === key ? -state.dir : 1;
    state.key = key;
    draw();
  }
  draw();
  const caption = `${t("selTitle")}: ${sel.model} · ${sel.workload}` + (sel.budget_cny ? ` · ${t("budget")} ¥${num(sel.budget_cny, 0)}` : "");
  return el("div", { id: "selection-table", tabindex: "-1", class: "selection" },
    el("div", { class: "scroll" }, el("table", {}, el("caption", {}, caption), el("thead", {}, el("tr", {}, heads)), tbody)),
    (sel.excluded || []).length ? el("p", { class: "hint" }, `${t("excluded")}: ${sel.excluded.join("; ")}`) : null,
    (sel.assumptions || []).length ? el("details", { class: "working" }, el("summary", {}, t("assumptions")),
      el("ul", {}, sel.assumptions.map((a) => el("li", {}, a)))) : null);
}
