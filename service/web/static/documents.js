// Teams' documents (GET /v1/documents): title, file, the date their figures hold for and where that date came
// from. Everything a document's record holds goes in as text (dom.js), never as HTML.
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";
import * as api from "./api.js";

let documents = null;  // the last list the API sent, or null before it has
let loading = null;

const $ = (id) => document.getElementById(id);

/** Is this document id in the list on screen? */
export const listed = (id) => Boolean(documents && documents.some((d) => d.id === id));

function row(d) {
  return el("tr", { dataset: { id: d.id, asOfFrom: d.as_of_from } },
    el("th", { scope: "row" }, el("cite", {}, d.title)),
    el("td", {}, el("code", {}, d.file)),
    el("td", {}, el("time", { datetime: d.as_of }, d.as_of)),
    el("td", { class: "from" }, (t("asOfFrom") || {})[d.as_of_from] || d.as_of_from));
}

/** Redraw the list in the page's language (after a language switch too). */
export function draw() {
  const section = $("documents");
  if (documents === null) return;
  section.dataset.count = String(documents.length);
  $("documents-empty").hidden = documents.length > 0;
  $("documents-table").hidden = documents.length === 0;
  clear($("documents-list")).append(...documents.map(row));
}

/** Fetch the list and draw it; an API error is shown in the section's own box, in the API's words. */
export function load(showError) {
  if (loading) return loading;
  const box = $("documents-error");
  loading = api.documents().then((list) => {
    documents = list;
    box.hidden = true;
    draw();
  }, (e) => showError(box, e)).finally(() => { loading = null; });
  return loading;
}
