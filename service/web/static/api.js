// Calls to kb's own HTTP API. Errors keep the API's words: {code, field, message, request_id}.
const KEY = "kb-api-key";

export class ApiError extends Error {
  constructor(status, detail, retryAfter) {
    super(detail.message);
    this.status = status;
    this.detail = detail;          // the API's error object, as it sent it
    this.retryAfter = retryAfter;  // seconds, from Retry-After (429, 503), else null
  }
}

export function savedKey() { return sessionStorage.getItem(KEY) || ""; }
export function saveKey(key) { sessionStorage.setItem(KEY, key); }

export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const key = savedKey();
  if (key && path.startsWith("/v1/")) headers.Authorization = `Bearer ${key}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { code: "offline", field: null, message: String(e.message || e), request_id: null }, 2);
  }
  const retry = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  let doc = null;
  try { doc = await response.json(); } catch { doc = null; }
  if (response.ok) return doc;
  const detail = doc && doc.error ? doc.error
    : { code: `http_${response.status}`, field: null, message: `HTTP ${response.status}`, request_id: null };
  throw new ApiError(response.status, detail, Number.isFinite(retry) ? retry : null);
}

/** A question, continuing the conversation whose last answer returned `state` (null: a new conversation). */
export const ask = (question, state = null) => request("POST", "/v1/ask", state ? { question, state } : { question });
export const fit = (fields) => request("POST", "/v1/fit", fields);
export const config = () => request("GET", "/web/config.json");
/** The teams' documents kb answers from: their records (title, file, as_of, as_of_from …). */
export const documents = () => request("GET", "/v1/documents");
/** Embedding jobs: {id, file, title, state, status: "queued" | "embedding n/N" | "ready" | "failed: why"}. */
export const jobs = () => request("GET", "/v1/jobs");
/** Mark an answer wrong: its question and state go to `kb gaps`. */
export const flagWrong = (question, state) => request("POST", "/v1/feedback", { question, verdict: "wrong", state });

/** /readyz: {ready, status, retryAfter}; 503 while the index loads (or failed to). */
export async function readiness() {
  try {
    const r = await fetch("/readyz", { headers: { Accept: "application/json" } });
    const doc = await r.json().catch(() => ({}));
    const retry = Number.parseInt(r.headers.get("Retry-After") || "", 10);
    return { ready: r.ok, status: doc.status || `HTTP ${r.status}`, detail: doc.detail || [],
             retryAfter: Number.isFinite(retry) ? retry : 2 };
  } catch {
    return { ready: false, status: "offline", detail: [], retryAfter: 2 };
  }
}
