// A small Markdown renderer for the rules pages: headings, paragraphs, lists (nested by
// indentation), block quotes, code blocks, tables, and inline bold, italic, code and links.
// Every piece of text becomes a text node (never HTML), so nothing in a page can run; links
// keep only http(s) addresses and other rules pages.

import { h } from "./ui.js";

const INLINE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*([^*]+?)\*\*|__([^_]+?)__|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/;

/** Inline Markdown of one line or paragraph as DOM nodes. */
export function inline(text) {
  const nodes = [];
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) { nodes.push(rest); break; }
    if (m.index) nodes.push(rest.slice(0, m.index));
    if (m[1]) nodes.push(h("code", {}, m[2].trim()));
    else if (m[3] || m[4]) nodes.push(h("strong", {}, inline(m[3] || m[4])));
    else if (m[5] || m[6]) nodes.push(h("em", {}, inline(m[5] || m[6])));
    else nodes.push(link(m[7], m[8]));
    rest = rest.slice(m.index + m[0].length);
  }
  return nodes;
}

function link(words, href) {
  // another game's rules page is its rules screen; other pages of the repository are not served
  // here, and an in-page anchor would change the route: those keep their words only
  const rules = href.match(/^(?:\.\/)?([\w-]+)\.md$/);
  if (rules) return h("a", { href: `#/rules/${rules[1]}` }, inline(words));
  if (!/^https?:\/\//.test(href)) return inline(words);
  return h("a", { href, rel: "noopener noreferrer", target: "_blank" }, inline(words));
}

const BLOCKS = [
  [/^\s*```/, fence],
  [/^#{1,6}\s/, heading],
  [/^\s*\|.*\|\s*$/, table],
  [/^\s*([-*+]|\d+[.)])\s+/, list],
  [/^\s*>/, quote],
  [/^\s*([-*_])(\s*\1){2,}\s*$/, rule],
];

/** A whole Markdown page as a list of DOM nodes. */
export function markdown(source) {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    if (!lines[i].trim()) { i++; continue; }
    const block = BLOCKS.find(([pattern]) => pattern.test(lines[i]));
    const [node, next] = block ? block[1](lines, i) : paragraph(lines, i);
    out.push(node);
    i = next;
  }
  return out;
}

function startsBlock(line) {
  return !line.trim() || BLOCKS.some(([pattern]) => pattern.test(line));
}

function paragraph(lines, i) {
  const words = [];
  while (i < lines.length && !startsBlock(lines[i])) words.push(lines[i++].trim());
  return [h("p", {}, inline(words.join(" "))), i];
}

function heading(lines, i) {
  const [, hashes, text] = lines[i].match(/^(#{1,6})\s+(.*?)\s*#*\s*$/);
  // the screen's own title is the h1: a page's headings go one level down
  return [h(`h${Math.min(hashes.length + 1, 6)}`, {}, inline(text)), i + 1];
}

function fence(lines, i) {
  const body = [];
  i++;
  while (i < lines.length && !/^\s*```/.test(lines[i])) body.push(lines[i++]);
  return [h("pre", {}, h("code", {}, body.join("\n"))), i + 1];
}

function rule(lines, i) {
  return [h("hr"), i + 1];
}

function quote(lines, i) {
  const inner = [];
  while (i < lines.length && /^\s*>/.test(lines[i])) inner.push(lines[i++].replace(/^\s*>\s?/, ""));
  return [h("blockquote", {}, markdown(inner.join("\n"))), i];
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

function table(lines, i) {
  const rows = [];
  while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(cells(lines[i++]));
  const ruled = rows.length > 1 && rows[1].every((c) => /^:?-+:?$/.test(c));
  const head = ruled ? rows[0] : null;
  const body = ruled ? rows.slice(2) : rows;
  return [h("div", { class: "table-wrap" }, h("table", {},
    head ? h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, inline(c))))) : null,
    h("tbody", {}, body.map((row) => h("tr", {}, row.map((c) => h("td", {}, inline(c)))))))), i];
}

const ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

/** A list, its items' continuation lines and nested lists (deeper indentation). */
function list(lines, i) {
  const first = lines[i].match(ITEM);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items = [];
  while (i < lines.length) {
    const m = lines[i].match(ITEM);
    if (!m || m[1].length !== indent) break;
    const text = [m[3].trim()];
    const nested = [];
    i++;
    while (i < lines.length && lines[i].trim()) {
      const sub = lines[i].match(ITEM);
      if (sub && sub[1].length > indent) {
        const [node, next] = list(lines, i);
        nested.push(node);
        i = next;
      } else if (!sub && !startsBlock(lines[i])) {
        text.push(lines[i++].trim());
      } else break;
    }
    items.push(h("li", {}, inline(text.join(" ")), nested));
    while (i < lines.length && !lines[i].trim() && (lines[i + 1] || "").match(ITEM)?.[1].length === indent) i++;
  }
  return [h(ordered ? "ol" : "ul", {}, items), i];
}
