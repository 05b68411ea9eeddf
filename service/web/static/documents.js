// Teams' documents (GET /v1/documents): title, file, the date their figures hold for and where that date came
// from; and documents still being embedded (GET /v1/jobs: queued, embedding n/N, failed), followed while they run.
// Everything a document's record or a job holds goes in as text (dom.js), never as HTML.
import { el, clear } from "./dom.js";
import { t, tf } from "./i18n.js";
import * as api from "./api.js";

let documents = null;  // the last list the API sent, or null before it has
let jobs = [];  // embedding jobs not yet ready (queued, embedding n/N, failed), newest first
let loading = null;
let polling = null;
const POLL_MS = 2000;  // while a job runs, its status and the list are fetched again this often

const $ = (id) => document.getElementById(id);

/** Is this document id in the list on screen? */
export const listed = (id) => Boolean(documents && documents.some((d) => d.id === id));

/** A job's status in the page's language: queued, embedding n/N, ready, or failed with the API's reason. */
function jobStatus(j) {
  if (j.state === "embedding") return tf("jobEmbedding", { n: j.done.toLocaleString(), m: j.total.toLocaleString() });
  if (j.state === "failed") return tf("jobFailed", { why: j.error || "" });
  return t(j.state === "queued" ? "jobQueued" : "jobReady");
}

function row(d) {
  return el("tr", { dataset: { id: d.id, asOfFrom: d.as_of_from, state: "ready" } },
    el("th", { scope: "row" }, el("cite", {}, d.title)),
    el("td", {}, el("code", {}, d.file)),
    el("td", {}, el("time", { datetime: d.as_of }, d.as_of)),
    el("td", { class: "from" }, (t("asOfFrom") || {})[d.as_of_from] || d.as_of_from),
    el("td", { class: "status" }, t("jobReady")));
}

function jobRow(j) {
  return el("tr", { class: `job ${j.state}`, dataset: { id: j.id, state: j.state } },
    el("th", { scope: "row" }, el("cite", {}, j.title)),
    el("td", {}, el("code", {}, j.file)), el("td", {}, ""), el("td", {}, ""),
    el("td", { class: "status", role: "status" }, jobStatus(j)));
}

/** Redraw the list in the page's language (after a language switch too). */
export function draw() {
  const section = $("documents");
  if (documents === null) return;
  const pending = jobs.filter((j) => j.state !== "ready" && !documents.some((d) => d.id === j.id));
  section.dataset.count = String(documents.length);
  $("documents-empty").hidden = documents.length + pending.length > 0;
  $("documents-table").hidden = documents.length + pending.length === 0;
  clear($("documents-list")).append(...pending.map(jobRow), ...documents.map(row));
}

/** Fetch the list and draw it; an API error is shown in the section's own box, in the API's words. */
export function load(showError) {
  if (loading) return loading;
  const box = $("documents-error");
  loading = Promise.all([api.documents(), api.jobs()]).then(([list, running]) => {
    documents = list;
    jobs = running;
    box.hidden = true;
    draw();
    const busy = jobs.some((j) => j.state === "queued" || j.state === "embedding");
    clearTimeout(polling);
    polling = busy ? setTimeout(() => load(showError), POLL_MS) : null;
  }, (e) => showError(box, e)).finally(() => { loading = null; });
  return loading;
}
