// The what-if form: POST /v1/fit with the values set, redrawn as they change (stale answers are dropped).
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";
import * as api from "./api.js";
import { fitCard } from "./fitcard.js";

const form = () => document.getElementById("fit-form");
let precisions = {}, seq = 0, timer = 0, last = null;

function fillPrecisions(workload, keep) {
  const select = form().elements.precision;
  select.replaceChildren(el("option", { value: "" }, t("defaultOpt")),
    ...(precisions[workload] || []).map((p) => el("option", { value: p }, p)));
  select.value = (precisions[workload] || []).includes(keep) ? keep : "";
}

export function initForm(config, onError) {
  const f = form();
  precisions = config.workload_precisions || {};
  document.getElementById("models").replaceChildren(...config.models.map((m) => el("option", { value: m })));
  f.elements.workload.replaceChildren(...config.workloads.map((w) => el("option", { value: w }, w)));
  f.elements.workload.value = "qlora";
  f.elements.gpu.replaceChildren(...config.gpus.map((g) => el("option", { value: g.id }, `${g.name} (${g.vram_gib} GiB)`)));
  f.elements.gpu.value = config.gpus.some((g) => g.id === "rtx-4090") ? "rtx-4090" : config.gpus[0]?.id;
  f.elements.count.max = String(config.max_count);
  f.elements.seq_len.max = String(config.max_seq);
  fillPrecisions("qlora", "");
  f.addEventListener("submit", (e) => { e.preventDefault(); run(onError); });
  f.addEventListener("change", (e) => {
    if (e.target.name === "workload") fillPrecisions(e.target.value, f.elements.precision.value);
    run(onError);
  });
  f.addEventListener("input", (e) => {
    if (e.target.tagName !== "INPUT") return;
    clearTimeout(timer);
    timer = setTimeout(() => run(onError), 400);
  });
}

/** The request: only fields that are set, so the server's defaults apply (and `concurrency` only when asked). */
export function collect() {
  const f = form().elements, body = { model: f.model.value.trim(), workload: f.workload.value, gpu: f.gpu.value };
  for (const name of ["count", "seq_len", "concurrency"]) {
    const raw = f[name].value.trim();
    if (raw !== "") body[name] = Number(raw);
  }
  if (f.precision.value) body.precision = f.precision.value;
  if (f.zero.value !== "0") body.zero = Number(f.zero.value);
  return body;
}

export async function run(onError) {
  clearTimeout(timer);
  const mine = ++seq, body = collect();
  for (const input of form().querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  try {
    const result = await api.fit(body);
    if (mine !== seq) return;
    document.getElementById("fit-error").hidden = true;
    last = result;
    draw();
  } catch (e) {
    if (mine !== seq) return;
    const field = e.detail && e.detail.field && form().elements[e.detail.field];
    if (field) field.setAttribute("aria-invalid", "true");
    onError(document.getElementById("fit-error"), e);
  }
}

export function draw() {
  const box = clear(document.getElementById("fit-result"));
  if (last) box.append(fitCard(last, 0, null));
}

/** Load a fit check's parameters into the form (the "try changes" button), then check them. */
export function load(fc, onError) {
  const f = form().elements;
  f.model.value = fc.model;
  f.workload.value = fc.workload;
  fillPrecisions(fc.workload, fc.precision);
  f.gpu.value = fc.gpu;
  f.count.value = String(fc.gpu_count);
  f.seq_len.value = String(fc.seq_len);
  f.zero.value = String(fc.zero_stage || 0);
  f.concurrency.value = fc.serving ? String(fc.serving.concurrency) : "";
  document.getElementById("whatif").scrollIntoView({ block: "start" });
  f.model.focus({ preventScroll: true });
  run(onError);
}
