// The page's words in Chinese and English, and number formats. Labels follow the question's language.
// The words are kb's (kb/words/catalog/page.py), served as words.js; "{name}" in one is filled by tf().
import { WORDS } from "./words.js";

let current = (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
const listeners = [];

export function lang() { return current; }
export function t(key) { return WORDS[current][key] ?? WORDS.en[key] ?? key; }
export function tf(key, values) { return t(key).replace(/\{(\w+)\}/g, (m, name) => String(values[name] ?? m)); }
export function onLanguage(fn) { listeners.push(fn); }

// Cards by id as people write them ("rtx-4090" → "RTX 4090"), from /web/config.json; an unknown id stays as it is.
let cards = {};
export function setCards(list) { cards = Object.fromEntries((list || []).map((g) => [g.id, g.label || g.id])); }
export function card(id) { return cards[id] || id; }
// A workload or a link id in the page's words ("qlora" → "QLoRA 微调", "nvlink-4" → "NVLink 4").
export function named(group, id) { return (t(group) || {})[id] || id; }

export function setLanguage(code) {
  current = code === "zh" ? "zh" : "en";
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const fn of listeners) fn(current);
}

const GIB = 1024 ** 3;
export function gib(bytes) { return `${(bytes / GIB).toFixed(2)} GiB`; }
export function num(x, digits = 1) {
  return x.toLocaleString(current === "zh" ? "zh-CN" : "en-US", { maximumFractionDigits: digits });
}
