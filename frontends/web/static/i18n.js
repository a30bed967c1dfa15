// The page's own texts (buttons, headings) from the server's gettext catalogs. Every text is
// written here as a call of t with its English msgid: Babel extracts them (babel.cfg) into cinco.pot and the
// server reads the same calls to serve /api/catalog/LANG. The moves, notices and refusals come
// in words from the server's narrator, never from this file.

export const LANGS = ["en", "uk", "ru", "cs", "it"];
const KEY = "cinco:lang";
let texts = {};
let names = {};
let current = "en";

export function chooseLanguage() {
  const kept = localStorage.getItem(KEY);
  if (kept && LANGS.includes(kept)) return kept;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

export async function loadLanguage(lang) {
  const answer = await fetch(`/api/catalog/${encodeURIComponent(lang)}`);
  if (!answer.ok) throw new Error(`catalog ${lang}: ${answer.status}`);
  const body = await answer.json();
  texts = body.texts || {};
  names = body.languages || {};
  current = body.lang || lang;
  document.documentElement.lang = current;
  return current;
}

export function remember(lang) {
  localStorage.setItem(KEY, lang);
}

export function language() {
  return current;
}

export function languageNames() {
  return names;
}

// The text of msgid in the page's language, its {names} filled from params.
export function t(msgid, params) {
  let text = texts[msgid] || msgid;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
  return text;
}
