// The SVG file `gstack diagram` writes loads nothing when someone opens it: an SVG has no meta
// CSP, so what mermaid drew from a diagram's labels and `themeCSS` is cleaned here. Kept:
// references to the file itself (`#id`) and data: URLs. Removed: every other url() (in <style>,
// in a style attribute, in a presentation attribute such as fill), image-set() string and
// @import, every other href/xlink:href/src and the other attributes that name a URL, event
// handler attributes, and the elements that load or run things (script, iframe, ...).
// CSS is read with its escapes decoded (render/page/css-refs.ts) and edited with postcss; the
// SVG is parsed and written as XML by htmlparser2 and dom-serializer (sanitize-html's own
// parser: sanitize-html itself writes <style> text raw, which in XML would let a decoded
// `&lt;/style&gt;` close the element).
import { parseDocument } from 'htmlparser2';
import renderDom from 'dom-serializer';
import { Element, Text, type ChildNode } from 'domhandler';
import postcss from 'postcss';
import { cssRefs, decodeCssEscapes, isSelfContainedRef } from '../page/css-refs.js';

/** Attributes whose value is a URL the browser may load or follow. */
const URL_ATTRS = new Set(['href', 'src', 'poster', 'data', 'background', 'action', 'formaction', 'lowsrc', 'dynsrc', 'longdesc', 'cite', 'codebase', 'manifest', 'profile', 'icon', 'usemap']);
/** Attributes that hold several URLs: never kept. */
const URL_LIST_ATTRS = new Set(['srcset', 'imagesrcset', 'ping', 'archive']);
/** Elements that load or run something whatever their attributes say. */
const DROPPED_ELEMENTS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'link', 'meta', 'base', 'audio', 'video', 'source', 'track', 'portal', 'handler', 'listener']);
/** SMIL animation elements: they can set an href after the file is cleaned. */
const ANIMATION_ELEMENTS = new Set(['set', 'animate', 'animatemotion', 'animatetransform', 'discard']);

export interface SanitizedSvg {
  svg: string;
  /** What was removed, for the caller to report (`url(...)`, `<img src=...>`). */
  removed: string[];
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
// Without a parenthesis (url(), image-set(), under any spelling) or an at-sign (@import "x")
// CSS names nothing: most attribute values (coordinates, classes) skip the tokenizer.
const hasOutsideRef = (css: string) => /[(@]/.test(css) && cssRefs(css).some((r) => !isSelfContainedRef(r.url));
const outsideRefs = (css: string) => cssRefs(css).filter((r) => !isSelfContainedRef(r.url)).map((r) => r.url);

/** A stylesheet without anything it would fetch: each declaration, at-rule or rule that names
 * an outside reference goes; the rest stays. CSS postcss cannot parse, or that still names one
 * after the edit (a spelling postcss and the browser read differently), goes whole. */
export function sanitizeCss(css: string, removed: string[] = []): string {
  if (!hasOutsideRef(css)) return css;
  let root: postcss.Root;
  try {
    root = postcss.parse(css);
  } catch {
    removed.push(...outsideRefs(css));
    return '';
  }
  root.walkAtRules((rule) => {
    const name = decodeCssEscapes(rule.name).toLowerCase();
    if (name === 'import' || hasOutsideRef(`@${rule.name} ${rule.params};`)) {
      removed.push(...(name === 'import' ? [rule.params] : outsideRefs(rule.params)));
      rule.remove();
    }
  });
  root.walkDecls((decl) => {
    const text = `${decl.prop}:${decl.value}`;
    if (hasOutsideRef(text)) {
      removed.push(...outsideRefs(text));
      decl.remove();
    }
  });
  root.walkRules((rule) => {
    if (hasOutsideRef(rule.selector)) {
      removed.push(...outsideRefs(rule.selector));
      rule.remove();
    }
  });
  const out = root.toString();
  if (hasOutsideRef(out)) {
    removed.push(...outsideRefs(out));
    return '';
  }
  return out;
}

function cleanElement(el: Element, removed: string[]): void {
  for (const [name, value] of Object.entries(el.attribs)) {
    const local = localName(name);
    const keep =
      !local.startsWith('on') &&
      !URL_LIST_ATTRS.has(local) &&
      (URL_ATTRS.has(local) ? isSelfContainedRef(value) : !hasOutsideRef(value));
    if (!keep) {
      removed.push(`<${el.name} ${name}="${value.slice(0, 120)}">`);
      delete el.attribs[name];
    }
  }
  if (localName(el.name) === 'style') {
    const css = el.children.map(textOf).join('');
    const clean = sanitizeCss(css, removed);
    if (clean !== css) {
      const text = new Text(clean);
      text.parent = el;
      el.children = [text];
    }
    return;
  }
  el.children = cleanChildren(el.children, removed);
}

function textOf(node: ChildNode): string {
  if (node.type === 'text') return node.data;
  if ('children' in node) return node.children.map(textOf).join('');
  return '';
}

function cleanChildren(nodes: ChildNode[], removed: string[]): ChildNode[] {
  const kept: ChildNode[] = [];
  for (const node of nodes) {
    // Processing instructions (`<?xml-stylesheet href=...?>`), doctypes and comments go.
    if (node.type === 'directive' || node.type === 'comment') continue;
    if (node instanceof Element) {
      const local = localName(node.name);
      const animatesUrl = ANIMATION_ELEMENTS.has(local) && URL_ATTRS.has(localName(node.attribs.attributeName ?? node.attribs.attributename ?? ''));
      if (DROPPED_ELEMENTS.has(local) || animatesUrl) {
        removed.push(`<${node.name}>`);
        continue;
      }
      cleanElement(node, removed);
    }
    kept.push(node);
  }
  return kept;
}

/** The SVG with nothing left that loads from outside it (see the top of this file). */
export function sanitizeSvg(svg: string): SanitizedSvg {
  const doc = parseDocument(svg, { xmlMode: true });
  const removed: string[] = [];
  doc.children = cleanChildren(doc.children, removed);
  return { svg: renderDom(doc, { xmlMode: true, encodeEntities: 'utf8' }), removed };
}
