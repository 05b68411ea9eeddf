// The page's wiring: ask, show errors as the API words them, wait while the index loads, ask for a key if needed.
import { el, clear } from "./dom.js";
import { t, tf, lang, setLanguage, onLanguage, setCards } from "./i18n.js";
import * as api from "./api.js";
import { renderAnswer } from "./answer.js";
import * as whatif from "./whatif.js";
import * as convo from "./conversation.js";
import * as docs from "./documents.js";

const $ = (id) => document.getElementById(id);
let lastAnswer = null, pending = null, waiting = false, retryTimer = 0, answers = 0;

function status(text) {
  $("status").hidden = !text;
  $("status").textContent = text || "";
}

/** An API error in its own words: message, field, code and request id; 429 and 503 also say when to retry. */
export function showError(box, e) {
  const d = e.detail || { code: "error", message: String(e) };
  box.hidden = false;
  box.replaceChildren(el("p", { class: "message" }, d.message),
    el("p", { class: "meta" }, [d.field ? `${t("errField")}: ${d.field} · ` : "", d.code,
      d.request_id ? ` · ${t("errRequest")}: ${d.request_id}` : ""].join("")));
  if (e.status === 429 && e.retryAfter) countdown(box, e.retryAfter);
  if (e.status === 401) { $("key-form").hidden = false; status(t("keyNeeded")); }
  if (e.status === 503 || e.status === 0) waitUntilReady();
}

function countdown(box, seconds) {
  const line = el("p", { class: "retry", dataset: { retryAfter: String(seconds) } }, tf("retryIn", { s: seconds }));
  box.append(line);
  clearInterval(retryTimer);
  let left = seconds;
  retryTimer = setInterval(() => {
    left -= 1;
    line.textContent = left > 0 ? tf("retryIn", { s: left }) : t("retryNow");
    if (left <= 0) clearInterval(retryTimer);
  }, 1000);
}

/** Poll /readyz while it answers 503, saying so; then ask the question that was waiting, if any. */
async function waitUntilReady() {
  if (waiting) return;
  waiting = true;
  let said = false;
  for (;;) {
    const r = await api.readiness();
    if (r.ready) break;
    said = true;
    const why = r.status === "offline" ? t("offline") : tf(r.status === "failed" ? "failed" : "loading", { s: r.retryAfter });
    status(r.detail.length ? `${why} (${r.detail[0]})` : why);
    document.body.dataset.ready = "false";
    await new Promise((ok) => setTimeout(ok, r.retryAfter * 1000));
  }
  waiting = false;
  document.body.dataset.ready = "true";
  if (said) status(t("ready"));
  if (pending !== null) { const q = pending; pending = null; ask(q); }
  // A first chart in the what-if section and the documents' list, unless a key must be typed first.
  if (!$("fit-result").childElementCount && $("key-form").hidden) whatif.run(showError);
  if ($("key-form").hidden) docs.load(showError);
}

async function ask(question) {
  pending = question;
  performance.clearMarks();
  performance.clearMeasures();
  performance.mark("kb-ask-start");
  $("ask").textContent = t("asking");
  $("error").hidden = true;
  try {
    const doc = await api.ask(question, convo.current());
    performance.measure("kb-answer-fetch", "kb-ask-start");  // the API's part, as the page sees it
    pending = null;
    lastAnswer = doc;
    $("flag-wrong").disabled = false;  // a new answer may be flagged in its turn
    $("flag-done").hidden = true;
    convo.add(question, doc);
    // A new language redraws the whole page in it; otherwise only the answer changes (the what-if chart,
    // labels and examples stay as they are, which keeps the first render close to the API's own time).
    if (doc.language !== lang()) setLanguage(doc.language); else renderAnswer(doc, onTry);
    performance.mark("kb-answer-rendered");
    answers += 1;
    $("answer").dataset.answers = String(answers);  // for tests and scripts: which answer is on screen
    // A passage from a document the list does not show yet (added since the page loaded): list it too.
    if (doc.passages.some((p) => p.kind === "document" && p.source && !docs.listed(p.source.document))) {
      docs.load(showError);
    }
    performance.measure("kb-first-answer", "kb-ask-start", "kb-answer-rendered");
    requestAnimationFrame(() => {  // the start of the frame that paints the answer
      performance.measure("kb-first-answer-painted", "kb-ask-start");
    });
    $("answer").focus({ preventScroll: true });
  } catch (e) {
    if (![0, 401, 503].includes(e.status)) pending = null;  // asked again once ready, or once a key is given
    showError($("error"), e);
  } finally {
    $("ask").textContent = t("ask");
  }
}

function examples() {
  clear($("example-list")).append(...t("examplesList").map((q) => el("button", { type: "button", class: "example",
    on: { click: () => { $("question").value = q; ask(q); } } }, q)));
}

function languageButton() {
  const b = $("lang");
  b.textContent = t("switchTo");
  b.setAttribute("aria-label", t("switchLabel"));
  b.lang = lang() === "zh" ? "en" : "zh-CN";  // the button names the other language, in that language
}

const onTry = (fc) => whatif.load(fc, showError);

onLanguage(() => {
  languageButton();
  convo.draw();
  docs.draw();
  if (lastAnswer) renderAnswer(lastAnswer, onTry);
  // The examples and the what-if chart follow once the answer has been painted: a reader looks at the answer.
  requestAnimationFrame(() => setTimeout(() => { examples(); whatif.draw(); }));
});

async function start() {
  setLanguage(lang());
  $("lang").addEventListener("click", () => setLanguage(lang() === "zh" ? "en" : "zh"));
  $("ask-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const q = $("question").value.trim();
    if (q) ask(q);
  });
  $("flag-wrong").addEventListener("click", async () => {
    if (!lastAnswer) return;
    $("flag-wrong").disabled = true;
    try {
      await api.flagWrong(lastAnswer.question, lastAnswer.state);
      $("flag-done").hidden = false;
    } catch (e) {
      $("flag-wrong").disabled = false;
      showError($("error"), e);
    }
  });
  $("new-question").addEventListener("click", () => {
    convo.reset();
    $("question").value = "";
    $("question").focus();
  });
  const shared = convo.fromUrl();  // a shared link: the same turn of the same conversation
  if (shared) {
    convo.resume(shared.state);
    pending = shared.question;
    $("question").value = shared.question;
  }
  $("key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    api.saveKey($("key").value.trim());
    $("key-form").hidden = true;
    status("");
    if (document.body.dataset.ready === "true") docs.load(showError);
    if (pending !== null) ask(pending);
  });
  let config;
  try {
    config = await api.config();
  } catch (e) {
    showError($("error"), e);
    return;
  }
  $("question").maxLength = config.max_question_chars;
  if (config.keys_required && !api.savedKey()) { $("key-form").hidden = false; status(t("keyNeeded")); }
  setCards(config.gpus);
  whatif.initForm(config, showError);
  document.body.dataset.started = "true";
  waitUntilReady();
}

start();
