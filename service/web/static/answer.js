// The answer: its sentences with [n] / [F1] / [S] markers as links, and the passages they cite.
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";
import { fitCard } from "./fitcard.js";
import { selectionTable } from "./selection.js";

const MARKER = /\[(\d+|F\d+|S)\]/g;

/** Open the target (a passage's <details>), bring it into view and move focus there for keyboard users. */
export function reveal(id) {
  const target = document.getElementById(id);
  if (!target) return;
  const details = target.querySelector("details");
  if (details) details.open = true;
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}

function markerLink(token, doc) {
  const inner = token.slice(1, -1);
  let id = null;
  if (inner === "S") id = doc.selection ? "selection-table" : null;
  else if (inner[0] === "F") id = Number(inner.slice(1)) <= doc.fit_checks.length ? `fit-${inner.slice(1)}` : null;
  else id = Number(inner) >= 1 && Number(inner) <= doc.passages.length ? `p-${inner}` : null;
  if (!id) return token;
  return el("a", { href: `#${id}`, class: "marker", on: { click: (e) => { e.preventDefault(); reveal(id); } } }, token);
}

export function answerText(text, doc) {
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    parts.push(text.slice(last, m.index), markerLink(m[0], doc));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

// A team document's place: its page, sheet and row, or lines; with its file and the date it holds for.
function documentWhere(s) {
  const place = s.sheet ? `${s.sheet} ${t("row")} ${s.row}`
    : s.page ? `${t("page")} ${s.page}${s.row ? ` ${t("row")} ${s.row}` : ""}`
      : `${t("lines")} ${s.start_line}–${s.end_line}`;
  return `《${s.title}》 ${s.file} ${place} · ${t("asOf")} ${s.as_of}`;
}

function passageItem(p, n, language) {
  const src = !p.source ? "" : p.source.document ? documentWhere(p.source)
    : `${p.source.path} ${t("lines")} ${p.source.start_line}–${p.source.end_line}`;
  const hasOriginal = p.original && p.original !== p.text;
  const body = hasOriginal
    ? el("div", { class: "two" },
      el("div", { lang: language === "zh" ? "zh-CN" : "en" }, el("h5", {}, t("rendering")), el("p", { class: "text" }, p.text)),
      el("div", { lang: "zh-CN" }, el("h5", {}, t("original")), el("p", { class: "text original" }, p.original)))
    : el("p", { class: "text", lang: "zh-CN" }, p.text);
  return el("li", { id: `p-${n}`, tabindex: "-1", class: "passage", dataset: { id: p.id } },
    el("details", {},
      el("summary", {}, `[${n}] §${p.section} · `, el("span", { class: "heading" }, p.heading), ` · ${p.kind}`),
      el("p", { class: "meta" }, `${t("section")} ${p.section} · ${t("source")}: `, el("code", {}, src), ` · ${p.id}`),
      body,
      (p.notes || []).length ? el("ul", { class: "notes", "aria-label": t("notes") }, p.notes.map((x) => el("li", {}, x))) : null));
}

const COVERAGE = { answered: "covAnswered", partial: "covPartial", not_covered: "covNot" };

export function renderAnswer(doc, onTry) {
  const section = document.getElementById("answer");
  section.hidden = false;
  clear(document.getElementById("answer-text")).append(...answerText(doc.answer, doc));
  const coverage = document.getElementById("coverage");
  coverage.hidden = !doc.coverage;
  coverage.className = `coverage ${doc.coverage || ""}`;
  coverage.textContent = doc.coverage ? t(COVERAGE[doc.coverage] || doc.coverage) : "";
  const unknown = document.getElementById("unknown");
  unknown.hidden = !(doc.unknown && doc.unknown.length);
  unknown.textContent = unknown.hidden ? "" : t("unknown") + doc.unknown.join(", ");
  clear(document.getElementById("passages")).append(...doc.passages.map((p, i) => passageItem(p, i + 1, doc.language)));
  clear(document.getElementById("fits")).append(...doc.fit_checks.map((fc, i) => fitCard(fc, i + 1, onTry)));
  clear(document.getElementById("selection"));
  if (doc.selection) document.getElementById("selection").append(selectionTable(doc.selection));
}
