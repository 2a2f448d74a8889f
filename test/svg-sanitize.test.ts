// The SVG sanitizer of `gstack diagram --svg` (render/mermaid/svg-sanitize.ts) on hand-made
// hostile SVGs: what a browser would fetch goes, under any spelling, and the drawing stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeCss, sanitizeSvg } from '../render/mermaid/svg-sanitize.js';

const wrap = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">${inner}</svg>`;

test('url()s in <style> go by declaration and rule, whatever the spelling; #ids and data: stay', () => {
  const css = [
    '.a{fill:url(#grad);stroke:red}',
    '.b{background:url(\\68 ttp://h/1);color:blue}',
    '.c{background-image:image-set("http://h/2" 1x)}',
    '@font-face{font-family:f;src:url(\\000068ttp://h/3)}',
    '.d{background:url("ht\\tp://h/4")}',
    '@import "http://h/5";',
    '.e{background:url(../outside/secret.png)}',
    '.f{background:url(data:image/png;base64,AAAA)}',
  ].join('\n');
  const removed: string[] = [];
  const out = sanitizeCss(css, removed);
  assert.match(out, /\.a\{fill:url\(#grad\);stroke:red\}/);
  assert.match(out, /\.b\{color:blue\}/);
  assert.match(out, /url\(data:image\/png;base64,AAAA\)/);
  for (const gone of ['h/1', 'h/2', 'h/3', 'h/4', 'h/5', 'secret.png', '@import']) assert.ok(!out.includes(gone), `${gone} left: ${out}`);
  assert.equal(removed.length, 6, removed.join(' | '));
  // CSS postcss cannot parse (an escaped at-rule name, an open block) goes whole when it names
  // anything outside; without such a name it stays as it is.
  assert.equal(sanitizeCss('.x{fill:red}\n@\\69mport "http://h/6";'), '');
  assert.equal(sanitizeCss('.x{background:url(http://h/7)'), '');
  assert.equal(sanitizeCss('.x{fill:red'), '.x{fill:red');
});

test('attributes that name a URL go unless #id or data:; handlers, scripts and href animations go', () => {
  const { svg, removed } = sanitizeSvg(
    wrap(
      '<use href="#m"/><use xlink:href="http://h/use"/><image href="/etc/x.png"/><image xlink:href="data:image/png;base64,AA"/>' +
        '<rect fill="url(&#x68;ttp://h/fill)" stroke="url(#g)" style="fill:u\\72l(http://h/style)" onload="x()"/>' +
        '<a href="javascript:x()"><text>t</text></a><script>x()</script>' +
        '<set attributeName="href" to="http://h/set"/><feImage href="file:///etc/passwd"/>' +
        '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="/tmp/s.png" srcset="data:x 1x, http://h/ss 2x"/><span>label</span></div></foreignObject>',
    ),
  );
  for (const gone of ['h/use', '/etc/x.png', 'h/fill', 'h/style', 'onload', 'javascript', '<script', 'h/set', '/etc/passwd', '/tmp/s.png', 'h/ss']) {
    assert.ok(!svg.includes(gone), `${gone} left: ${svg}`);
  }
  assert.match(svg, /<use href="#m"\/>/);
  assert.match(svg, /xlink:href="data:image\/png;base64,AA"/);
  assert.match(svg, /stroke="url\(#g\)"/);
  assert.match(svg, /viewBox="0 0 10 10"/);
  assert.match(svg, /<span>label<\/span>/);
  assert.ok(removed.length >= 10, removed.join(' | '));
});

test('a <style> whose decoded text closes the element cannot add elements; processing instructions go', () => {
  const { svg } = sanitizeSvg(
    `<?xml-stylesheet href="http://h/pi.css"?>` + wrap('<style>.a{fill:red}&lt;/style&gt;&lt;image href="http://h/esc"/&gt;</style><rect class="a"/>'),
  );
  assert.ok(!svg.includes('pi.css'), svg);
  assert.doesNotMatch(svg, /<image/);
  assert.match(svg, /<style>\.a\{fill:red\}&lt;\/style&gt;&lt;image href=&quot;http:\/\/h\/esc&quot;\/&gt;<\/style>/);
});

// Tenth red-team pass: a URL held in a custom property and substituted into image-set() is spelled
// by no url() or string the check reads; themeCSS and a label's style attribute both loaded it.
test('image-set() of a var(), attr() or env() goes: its URL comes from elsewhere', () => {
  const css = '.nodeLabel{--u:"../../secret.png";background-image:image-set(var(--u) 1x);color:var(--c)} .b{background:-webkit-image-set(var(--w) 1x)}';
  const removed: string[] = [];
  const out = sanitizeCss(css, removed);
  assert.ok(!/image-set/i.test(out), out);
  assert.match(out, /color:\s*var\(--c\)/, 'a var() elsewhere stays');
  assert.ok(removed.length >= 2, JSON.stringify(removed));
  const svg = sanitizeSvg(`<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><span xmlns="http://www.w3.org/1999/xhtml" style="background:image-set(var(--q) 1x);--q:&quot;http://127.0.0.1:9/lbl.png&quot;">c</span></foreignObject></svg>`);
  assert.ok(!/image-set/.test(svg.svg), svg.svg);
});
