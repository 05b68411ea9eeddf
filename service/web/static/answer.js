// The answer: its sentences with [n] / [F1] / [S] markers as links, and the passages they cite.
import { el, clear } from "./dom.js";
import { t, tf, named } from "./i18n.js";
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

// A team document's place inside it: a sheet and row, a page (and a table's row on it), or lines.
function place(s) {
  if (s.sheet) return tf("sheetRow", { s: s.sheet, r: s.row });
  if (s.page) return s.row ? tf("pageRow", { p: s.page, r: s.row }) : tf("pageAt", { p: s.page });
  return tf("lineRange", { a: s.start_line, b: s.end_line });
}

// What a passage is, in words: the guide, a card's figures, a selection rule, a case, a table kb computed.
const origin = (p) => named("origins", p.kind);

// Where a passage comes from: the guide and its lines (line n is the source document's line n), the kind of
// note kb keeps beside the guide, or a team document with its file, place and date.
function where(p) {
  const s = p.source;
  if (!s) return el("p", { class: "meta" }, `${t("section")} ${p.section} · ${origin(p)}`);
  if (!s.document) {
    const from = p.kind === "guide" ? tf("guideLines", { a: s.start_line, b: s.end_line }) : origin(p);
    return el("p", { class: "meta" }, `${t("section")} ${p.section} · ${t("source")}: ${from}`);
  }
  const validity = s.valid_until
    ? [" · ", el("span", { class: s.expired ? "doc-valid expired" : "doc-valid" },
      tf(s.expired ? "expiredOn" : "validUntil", { d: s.valid_until }))]
    : [];
  return el("p", { class: "meta where", dataset: { document: s.document } },
    `${t("document")}: `, el("cite", { class: "doc-title" }, s.title), ` (${s.document}) · ${t("file")}: `,
    el("code", { class: "doc-file" }, s.file), " · ", el("span", { class: "doc-place" }, place(s)),
    ` · ${t("asOf")} `, el("time", { class: "doc-as-of", datetime: s.as_of }, s.as_of), ...validity);
}

function passageItem(p, n, language) {
  const hasOriginal = p.original && p.original !== p.text;
  const body = hasOriginal
    ? el("div", { class: "two" },
      el("div", { lang: language === "zh" ? "zh-CN" : "en" }, el("h5", {}, t("rendering")), el("p", { class: "text" }, p.text)),
      el("div", { lang: "zh-CN" }, el("h5", {}, t("original")), el("p", { class: "text original" }, p.original)))
    : el("p", { class: "text", lang: p.kind === "document" ? null : "zh-CN" }, p.text);
  const label = p.kind === "document" && p.source ? `《${p.source.title}》` : `§${p.section}`;
  return el("li", { id: `p-${n}`, tabindex: "-1", class: "passage", dataset: { id: p.id, kind: p.kind } },
    el("details", {},
      el("summary", {}, `[${n}] ${label} · `, el("span", { class: "heading" }, p.heading), ` · ${origin(p)}`),
      where(p),
      body,
      (p.notes || []).length ? el("ul", { class: "notes", "aria-label": t("notes") }, p.notes.map((x) => el("li", {}, x))) : null));
}

const COVERAGE = { answered: "covAnswered", partial: "covPartial", not_covered: "covNot" };

// An answer taken from a team's document is not "answered from the guide": the badge names what its markers cite.
function coverageKey(doc) {
  if (doc.coverage !== "answered") return COVERAGE[doc.coverage] || doc.coverage;
  const cited = new Set([...doc.answer.matchAll(/\[(\d+)\]/g)].map((m) => doc.passages[Number(m[1]) - 1])
    .filter(Boolean).map((p) => (p.kind === "document" ? "document" : "guide")));
  if (!cited.has("document")) return "covAnswered";
  return cited.has("guide") ? "covBoth" : "covDocuments";
}

export function renderAnswer(doc, onTry) {
  const section = document.getElementById("answer");
  section.hidden = false;
  clear(document.getElementById("answer-text")).append(...answerText(doc.answer, doc));
  const coverage = document.getElementById("coverage");
  coverage.hidden = !doc.coverage;
  coverage.className = `coverage ${doc.coverage || ""}`;
  coverage.textContent = doc.coverage ? t(coverageKey(doc)) : "";
  coverage.dataset.from = coverageKey(doc);
  const unknown = document.getElementById("unknown");
  unknown.hidden = !(doc.unknown && doc.unknown.length);
  unknown.textContent = unknown.hidden ? "" : t("unknown") + doc.unknown.join(", ");
  clear(document.getElementById("passages")).append(...doc.passages.map((p, i) => passageItem(p, i + 1, doc.language)));
  clear(document.getElementById("fits")).append(...doc.fit_checks.map((fc, i) => fitCard(fc, i + 1, onTry, doc.passages)));
  clear(document.getElementById("selection"));
  if (doc.selection) document.getElementById("selection").append(selectionTable(doc.selection));
}
