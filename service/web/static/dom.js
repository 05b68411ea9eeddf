// Building elements without HTML strings: text always goes in as text nodes, so corpus text can never run.
const SVG = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const el = (tag, attrs, ...children) => fill(document.createElement(tag), attrs, children);
export const svg = (tag, attrs, ...children) => fill(document.createElementNS(SVG, tag), attrs, children);
export function clear(node) { node.replaceChildren(); return node; }
