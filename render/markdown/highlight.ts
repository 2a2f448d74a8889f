// Syntax highlighting for fenced code in `gstack pdf`: highlight.js (the library md-to-pdf and
// most static-site tools use), bundled with the CLI, so it works offline. It runs in Node while
// the Markdown is converted; the page itself runs no script for it. Only fences that name a
// language highlight.js knows are coloured; a fence without one, or with an unknown one, stays
// plain text (no guessing). The colours are chosen for paper: dark enough on the light code
// background to read when printed, and told apart by hue and weight, not by a dark theme.
import { createRequire } from 'node:module';
import type { HLJSApi, LanguageFn } from 'highlight.js';

export type Highlighter = HLJSApi;

/** Fences that say they are not code in any language. */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', 'nohighlight', 'mermaid']);

/** The language a fence's info string names ("js", "ts {title=x}" -> "ts"), lower-cased. */
export function fenceLanguage(info: string): string | undefined {
  const name = info.trim().split(/[\s{]/, 1)[0]?.toLowerCase();
  return name ? name : undefined;
}

/** The languages the fences of a Markdown source name (cheap scan, before parsing). */
function fenceLanguages(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(/^[ \t>]*(?:`{3,}|~{3,})[ \t]*([^\s`{]+)/gm)) names.add(m[1].toLowerCase());
  return names;
}

let core: Promise<Highlighter> | undefined;
let common: Promise<unknown> | undefined;

/**
 * highlight.js with the languages the fences of `source` name, or undefined when none names
 * one: plain documents pay nothing. A language is loaded by its own name (`javascript`,
 * `bash`: the core and one small module each); an alias (`js`, `sh`, `yml`) is known only to
 * the language that declares it, so a name that is not a module loads highlight.js's common
 * set (~40 languages, ~50 ms once per process), whose aliases cover the usual ones.
 */
export async function loadHighlighter(source: string): Promise<Highlighter | undefined> {
  const wanted = [...fenceLanguages(source)].filter((n) => !PLAIN.has(n));
  if (wanted.length === 0) return undefined;
  const hljs = await (core ??= import('highlight.js/lib/core').then((m) => m.default));
  const unresolved = wanted.filter((name) => !hljs.getLanguage(name) && !registerByName(hljs, name));
  // The common set registers itself on the same core instance.
  if (unresolved.length) await (common ??= import('highlight.js/lib/common'));
  return hljs;
}

/** Registers the language whose module is named `name`; false when there is none. */
function registerByName(hljs: Highlighter, name: string): boolean {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return false;
  try {
    const lang = createRequire(import.meta.url)(`highlight.js/lib/languages/${name}`) as LanguageFn | { default: LanguageFn };
    hljs.registerLanguage(name, typeof lang === 'function' ? lang : lang.default);
    return true;
  } catch {
    return false; // not a language module: maybe an alias, else the fence stays plain
  }
}

/** The fence's code as highlighted HTML (escaped text in <span class="hljs-...">), or
 * undefined when the language is unknown: the caller prints it plain. */
export function highlightCode(hljs: Highlighter | undefined, code: string, language: string | undefined): string | undefined {
  if (!hljs || !language || PLAIN.has(language) || !hljs.getLanguage(language)) return undefined;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

/** Print colours for highlight.js's classes (GitHub's light palette, darkened where a colour
 * would print faint). Keywords, strings, comments, numbers and names differ in hue; no italic
 * or extra weights, so highlighting embeds no further font. */
export const HIGHLIGHT_COLORS = {
  keyword: '#b3101e',
  string: '#0a3069',
  comment: '#5b636c',
  number: '#0550ae',
  title: '#6639ba',
  attr: '#0550ae',
  builtin: '#953800',
  meta: '#5b636c',
} as const;

const C = HIGHLIGHT_COLORS;
export const HIGHLIGHT_CSS = `
.hljs-keyword, .hljs-doctag, .hljs-template-tag, .hljs-template-variable, .hljs-type, .hljs-variable.language_, .hljs-selector-tag { color: ${C.keyword}; }
.hljs-string, .hljs-regexp, .hljs-meta .hljs-string { color: ${C.string}; }
.hljs-comment, .hljs-code, .hljs-formula, .hljs-quote { color: ${C.comment}; }
.hljs-number, .hljs-literal, .hljs-symbol, .hljs-bullet, .hljs-variable.constant_ { color: ${C.number}; }
.hljs-title, .hljs-title.class_, .hljs-title.function_, .hljs-section { color: ${C.title}; }
.hljs-attr, .hljs-attribute, .hljs-property, .hljs-selector-attr, .hljs-selector-class, .hljs-selector-id, .hljs-name, .hljs-operator { color: ${C.attr}; }
.hljs-built_in, .hljs-params .hljs-built_in, .hljs-selector-pseudo { color: ${C.builtin}; }
.hljs-meta, .hljs-meta .hljs-keyword { color: ${C.meta}; }
.hljs-addition { color: #116329; background: #dafbe1; }
.hljs-deletion { color: #82071e; background: #ffebe9; }
`;
