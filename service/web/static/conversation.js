// The conversation on the page: its turns, the state the next question continues, and the URL that shares it.
// The state is the last answer's `state`, passed back unchanged (the API keeps nothing between requests), and
// sits in the URL with the question (?q=…&s=…), so a link opens the same turn of the same conversation.
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";

let turns = [];
let state = null;

export const current = () => state;

function encode(obj) {
  const bytes = new TextEncoder().encode(JSON.stringify(obj));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** The question and the state a shared link carries, or null. A state that does not decode is dropped. */
export function fromUrl() {
  const params = new URLSearchParams(location.search);
  const q = params.get("q");
  if (!q) return null;
  let s = null;
  try { s = params.get("s") ? decode(params.get("s")) : null; } catch { s = null; }
  return { question: q, state: s };
}

function share(question, before) {
  const params = new URLSearchParams({ q: question });
  if (before) params.set("s", encode(before));
  history.replaceState(null, "", `${location.pathname}?${params}`);
}

/** Start over: the next question stands alone. */
export function reset() {
  turns = [];
  state = null;
  history.replaceState(null, "", location.pathname);
  draw();
}

/** Continue from a shared link's state (before its question is asked). */
export function resume(s) { state = s; }

/** Record an answered turn: what was asked, how kb read it, what it carried and changed. */
export function add(question, doc) {
  const before = state;
  turns.push({ question, resolved: doc.resolved_question, carried: doc.carried || [], changed: doc.changed || [] });
  state = doc.state || null;
  share(question, before);
  draw();
}

export function draw() {
  const box = document.getElementById("turns");
  document.getElementById("conversation").hidden = turns.length < 2;
  document.getElementById("new-question").hidden = turns.length === 0;
  clear(box).append(...turns.map((turn, i) => el("li", { class: "turn", dataset: { turn: String(i + 1) } }, [
    el("p", { class: "asked" }, turn.question),
    turn.resolved && turn.resolved !== turn.question
      ? el("p", { class: "resolved" }, `${t("readAs")}: ${turn.resolved}`) : "",
    turn.carried.length || turn.changed.length
      ? el("p", { class: "slots" }, [turn.carried.length ? `${t("carried")}: ${turn.carried.join(", ")}` : "",
        turn.changed.length ? `${t("changed")}: ${turn.changed.join(", ")}` : ""].filter(Boolean).join(" · ")) : "",
  ])));
}
