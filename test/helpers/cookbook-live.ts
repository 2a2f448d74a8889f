// The cookbook-live suite, defined once and run by two test files so the tier runs them side by
// side: test/cookbook-live.e2e.test.ts (Chromium, plus the committed scripts and the non-local
// branches) and test/cookbook-live-aside.e2e.test.ts (the Aside test double, about as slow again).
// On the double, each shape's test also runs the same call on Chromium and compares the evidence
// labels (labelsOf): the engine parity of every shape, at the cost of a warm Chromium call rather
// than another call of the double, which starts a browser each time.
// Every cookbook shape, live, against the fixture site on 127.0.0.1: through `gstack cookbook`,
// then the committed generated/cookbook/*.js files and the complete scripts of the generated
// skills through `gstack run`. Real Chromium, real loopback server, real PNG and PDF files.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { ROOT, runCli, tempHome, type CliResult } from './cli.js';
import { leftmostWordX, pdfInfo, pdfText, pngPixel, pngSize, squash } from './inspect.js';
import { SHAPES, findShape, buildScript } from '../../cookbook/index.js';
import { loadCatalog } from '../../driver/catalog.js';

export type Engine = 'chromium' | 'aside';

const LABELS = loadCatalog().evidenceLabels.map((l) => l.label);
const FENCES: Record<string, string> = { TEXT_START: 'TEXT_END', SNAPSHOT_START: 'SNAPSHOT_END', DIFF_START: 'DIFF_END' };

/** The evidence labels of an output, in order. Lines inside a fence are page content (they
 * may differ in detail between engines) and are skipped; the fences themselves count. */
export function labelsOf(lines: string[]): string[] {
  const out: string[] = [];
  let closing: string | undefined;
  for (const line of lines) {
    if (closing) {
      if (line === closing) {
        out.push(line);
        closing = undefined;
      }
      continue;
    }
    const label = LABELS.find((l) => (l.endsWith('=') ? line.startsWith(l) : line === l || line.startsWith(l + ' ')));
    if (!label) continue;
    out.push(label);
    if (FENCES[label]) closing = FENCES[label];
  }
  return out;
}

/** Defines the suite's tests for `engines`; `committed` adds the committed scripts and the
 * shapes' non-local branches (engine-independent, so run once). */
export function cookbookLiveSuite({ engines, committed }: { engines: Engine[]; committed: boolean }): void {
  let server: FixtureServer;
  let home: string;
  before(async () => {
    server = await startFixtureServer();
    home = tempHome('gstack-cookbook-');
  });
  after(async () => {
    await server?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  const ENGINES = {
    chromium: () => ({ GSTACK_HOME: home }),
    aside: () => ({
      GSTACK_HOME: home,
      PATH: `${join(ROOT, 'test', 'doubles')}:${process.env.PATH}`,
      ASIDE_DOUBLE_HOME: join(home, 'aside'),
    }),
  } as const;

  /** The lines between two fence labels (first occurrence). */
  function between(lines: string[], start: string, end: string): string[] {
    const i = lines.indexOf(start);
    const j = lines.indexOf(end, i + 1);
    assert.ok(i >= 0 && j > i, `expected ${start} … ${end} in:\n${lines.join('\n')}`);
    return lines.slice(i + 1, j);
  }

  const value = (lines: string[], label: string) => lines.find((l) => l.startsWith(label))?.slice(label.length);
  const all = (lines: string[], label: string) => lines.filter((l) => l.startsWith(label)).map((l) => l.slice(label.length));

  async function cookbook(engine: Engine, shape: string, path: string, params: object = {}): Promise<CliResult & { out: string }> {
    const out = join(home, 'out', `${engine}-${shape}-${Math.random().toString(36).slice(2, 8)}`);
    const r = await runCli(['cookbook', shape, '--url', server.origin + path, '--params', JSON.stringify(params), '--engine', engine, '--out', out], {
      env: ENGINES[engine](),
      timeoutMs: 120_000,
    });
    return { ...r, out };
  }

  /** Exit 0, the script's last own line is the sentinel, and every ARTIFACT exists. */
  function assertOk(r: CliResult, shape: string): void {
    assert.equal(r.code, 0, `${shape}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
    const own = r.lines.filter((l) => !l.startsWith('ARTIFACT '));
    assert.equal(own.at(-1), 'GSTACK_STEP_OK', `${shape}: sentinel last`);
    assert.ok(r.lines[0].startsWith('ASIDE_DIR='), `${shape}: ASIDE_DIR= first`);
    for (const a of all(r.lines, 'ARTIFACT ')) assert.ok(existsSync(a), a);
  }

  /** Parity: the call `r` made on the double, made again on Chromium, prints the same evidence
   * labels in the same order and the same URL= lines, and succeeds there too. */
  async function assertSameOnChromium(r: CliResult, shape: string, path: string, params: object = {}): Promise<void> {
    const c = await cookbook('chromium', shape, path, params);
    assertOk(c, `${shape} on chromium`);
    assert.deepEqual(labelsOf(r.lines), labelsOf(c.lines), `${shape}: the double and Chromium print the same labels\naside:\n${r.stdout}\nchromium:\n${c.stdout}`);
    assert.deepEqual(all(r.lines, 'URL='), all(c.lines, 'URL='), `${shape}: URL= lines`);
    for (const l of findShape(shape)!.evidence) assert.ok(labelsOf(c.lines).includes(l), `${shape} printed ${l}`);
  }
  /** On the double only: the parity check of the test's first call. */
  const parity = (engine: Engine, r: CliResult, shape: string, path: string, params: object = {}) =>
    engine === 'aside' ? assertSameOnChromium(r, shape, path, params) : Promise.resolve();

  /** The evidence labels a shape promises appear in the order it promises them. */
  function assertLabelsInOrder(r: CliResult, shapeName: string): void {
    const shape = findShape(shapeName)!;
    let from = 0;
    for (const label of shape.evidence) {
      const at = r.lines.findIndex((l, i) => i >= from && (label === 'LINK' || label === 'STEP' || label === 'FIELD' ? l.startsWith(label + ' ') : l.startsWith(label)));
      assert.ok(at >= 0, `${shapeName}: ${label} missing or out of order in:\n${r.lines.join('\n')}`);
      from = at;
    }
  }

  for (const engine of engines) {
    describe(`cookbook shapes on ${engine}`, () => {
      test('read: title, snapshot, text, full-page screenshot and the console errors from the first byte', async () => {
        const r = await cookbook(engine, 'read', '/console-error.html');
        assertOk(r, 'read');
        assertLabelsInOrder(r, 'read');
        assert.equal(value(r.lines, 'TITLE='), 'Console errors');
        assert.deepEqual(between(r.lines, 'TEXT_START', 'TEXT_END'), ['Console errors']);
        const errors = JSON.parse(value(r.lines, 'CONSOLE_ERRORS=')!) as string[];
        assert.ok(errors.some((e) => e.includes('early console error from head')), `head-script console.error caught: ${errors}`);
        assert.ok(errors.some((e) => e.includes('uncaught boom on load')), `uncaught exception caught: ${errors}`);
        assert.ok(pngSize(join(r.out, 'read.png')).width > 0);
        await parity(engine, r, 'read', '/console-error.html');
      });

      test('flow: acts by ref and shows the diff, URL and before/after screenshots', async () => {
        const r = await cookbook(engine, 'flow', '/', { steps: [{ action: 'click', role: 'button', name: 'Click me' }] });
        assertOk(r, 'flow');
        assertLabelsInOrder(r, 'flow');
        assert.match(value(r.lines, 'STEP ')!, /^1 click "Click me" ref=(f\d+)?e\d+$/);
        assert.ok(between(r.lines, 'DIFF_START', 'DIFF_END').some((l) => l.includes('Clicked 1')), r.stdout);
        assert.ok(existsSync(join(r.out, 'flow-before.png')) && existsSync(join(r.out, 'flow-after.png')));
        await parity(engine, r, 'flow', '/', { steps: [{ action: 'click', role: 'button', name: 'Click me' }] });
      });

      // A trial agent QA-ing a slide deck needed arrow keys on the page, which no element takes.
      test('flow: a press without a name goes to the page (a document-level key listener sees it)', async () => {
        const r = await cookbook(engine, 'flow', '/keys.html', { steps: [{ action: 'press', value: 'ArrowRight' }, { action: 'press', value: 'ArrowRight' }, { action: 'press', value: 'ArrowLeft' }] });
        assertOk(r, 'flow');
        assert.deepEqual(all(r.lines, 'STEP ').map((l) => l), ['1 press page key="ArrowRight"', '2 press page key="ArrowRight"', '3 press page key="ArrowLeft"']);
        const diffs = r.stdout.split('DIFF_START\n').slice(1).map((d) => d.split('\nDIFF_END')[0]);
        assert.match(diffs[0], /\+ .*status.*Slide 2/);
        assert.match(diffs[1], /\+ .*status.*Slide 3/);
        assert.match(diffs[2], /\+ .*status.*Slide 2/);
      });

      // A trial agent's Execute in an API console answered after the diff was taken: a step can
      // wait for its result, and the after shot is the whole page (the result was below the fold).
      test('flow: a step\'s waitFor holds the diff until its result shows; without it the diff comes first; the after shot is the whole page', async () => {
        const waited = await cookbook(engine, 'flow', '/delayed.html', { steps: [{ action: 'click', name: 'Execute', waitFor: { text: 'Loaded 3 rows' } }] });
        assertOk(waited, 'flow');
        assert.ok(between(waited.lines, 'DIFF_START', 'DIFF_END').some((l) => /\+ .*Loaded 3 rows/.test(l)), waited.stdout);
        assert.ok(pngSize(join(waited.out, 'flow-after.png')).height > 3000, 'the after shot covers the page');
        const hasty = await cookbook(engine, 'flow', '/delayed.html', { steps: [{ action: 'click', name: 'Execute' }] });
        assertOk(hasty, 'flow');
        assert.ok(!between(hasty.lines, 'DIFF_START', 'DIFF_END').some((l) => /Loaded 3 rows/.test(l)), hasty.stdout);
        const never = await cookbook(engine, 'flow', '/delayed.html', { steps: [{ action: 'click', name: 'Execute', waitFor: { text: 'Loaded 9 rows', timeoutMs: 2500 } }] });
        assert.equal(never.code, 1, never.stdout);
        assert.match(never.lines.at(-1)!, /^\[error\] .*waitFor text "Loaded 9 rows" was not visible 2500 ms after step 1/);
      });

      test('flow: refuses to type into a password field', async () => {
        const r = await cookbook(engine, 'flow', '/form.html', { steps: [{ action: 'fill', role: 'textbox', name: 'Password', value: 'hunter2' }] });
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.lines.at(-1)!, /^\[error\].*Refusing to type into a password field/);
        assert.ok(!r.stdout.includes('hunter2'));
      });

      test('annotated: the snapshot and a PNG with the refs drawn', async () => {
        const r = await cookbook(engine, 'annotated', '/form.html');
        assertOk(r, 'annotated');
        assertLabelsInOrder(r, 'annotated');
        assert.ok(between(r.lines, 'SNAPSHOT_START', 'SNAPSHOT_END').some((l) => /textbox "Username" \[ref=/.test(l)));
        assert.ok(pngSize(join(r.out, 'annotated.png')).width > 0);
        await parity(engine, r, 'annotated', '/form.html');
      });

      test('responsive: 375, 768 and 1440 wide screenshots with overflow detection', async () => {
        const r = await cookbook(engine, 'responsive', '/');
        assertOk(r, 'responsive');
        assertLabelsInOrder(r, 'responsive');
        const viewports = all(r.lines, 'VIEWPORT=').map((v) => JSON.parse(v));
        assert.deepEqual(viewports.map((v) => [v.name, v.width]), [['mobile', 375], ['tablet', 768], ['desktop', 1440]]);
        for (const v of viewports) {
          assert.equal(v.overflowX, v.scrollWidth > v.width);
          assert.equal(pngSize(join(r.out, `responsive-${v.name}-${v.width}.png`)).width, v.width);
        }
        // A page 700 px wide overflows the phone only: the detection reports what the page does.
        const wide = await cookbook(engine, 'responsive', '/wide.html');
        assertOk(wide, 'responsive');
        const wideViewports = all(wide.lines, 'VIEWPORT=').map((v) => JSON.parse(v));
        assert.deepEqual(wideViewports.map((v) => v.overflowX), [true, false, false], wide.stdout);
        assert.ok(wideViewports[0].scrollWidth >= 700, JSON.stringify(wideViewports[0]));
        await parity(engine, r, 'responsive', '/');
      });

      // A trial agent's 768 and 1440 shots of a real deck showed its 1280 layout (Playwright's own
      // screenshot re-applied its viewport over the CDP sizing), and with fullPage false every shot
      // was 1280x720. The image must show the layout of its viewport: each colours the page its own.
      test('responsive: each screenshot shows the page laid out at its viewport, full page or not', async () => {
        const colour = { mobile: [255, 0, 0], tablet: [0, 160, 0], desktop: [0, 0, 255] } as Record<string, number[]>;
        for (const fullPage of [true, false]) {
          const r = await cookbook(engine, 'responsive', '/breakpoints.html', { fullPage });
          assertOk(r, 'responsive');
          for (const v of all(r.lines, 'VIEWPORT=').map((l) => JSON.parse(l))) {
            const file = join(r.out, `responsive-${v.name}-${v.width}.png`);
            const size = pngSize(file);
            assert.equal(size.width, v.width, `${v.name} fullPage=${fullPage}: width`);
            if (fullPage) assert.equal(size.height, 2000, `${v.name}: the whole 2000 px page`);
            else assert.equal(size.height, v.height, `${v.name}: the viewport only`);
            assert.deepEqual(pngPixel(file, Math.floor(v.width / 2), 300), colour[v.name], `${v.name} fullPage=${fullPage}: the layout of its own width`);
            // The 100vw bar reaches the right edge: the layout viewport is as wide as the image.
            assert.deepEqual(pngPixel(file, v.width - 2, 10), [255, 255, 0], `${v.name} fullPage=${fullPage}: layout as wide as the shot`);
          }
        }
      });

      test('links: HEAD-checks same-origin links on a local target and never follows sign-out or delete links', async () => {
        const before = server.requests.length;
        const r = await cookbook(engine, 'links', '/');
        assertOk(r, 'links');
        assertLabelsInOrder(r, 'links');
        const o = server.origin;
        assert.ok(r.lines.includes(`LINK 200 ${o}/form.html`), r.stdout);
        assert.ok(r.lines.includes(`LINK 404 ${o}/missing.html`), r.stdout);
        assert.ok(r.lines.some((l) => l.startsWith(`LINK ? ${o}/logout (not followed`)), r.stdout);
        assert.ok(r.lines.some((l) => l.startsWith(`LINK ? ${o}/account/delete (not followed`)), r.stdout);
        assert.ok(!r.stdout.includes('example.invalid'), 'cross-origin links are not listed');
        const seen = server.requests.slice(before);
        assert.ok(seen.some((q) => q.method === 'HEAD' && q.path === '/form.html'), 'checked with HEAD');
        assert.deepEqual(seen.filter((q) => q.path === '/logout' || q.path.startsWith('/account')), []);
        assert.ok(!r.lines.some((l) => l.startsWith('[no ')), r.stdout);
        await parity(engine, r, 'links', '/');
        // No LINK line at all read as a page still drawing (trial V26): a page with none says why.
        const none = await cookbook(engine, 'links', '/keys.html');
        assertOk(none, 'links');
        assert.ok(none.lines.includes('[no links on the page: if the app draws them after load, pass waitFor, e.g. {"selector": "a[href]"}]'), none.stdout);
        if (engine === 'chromium') {
          const elsewhere = await cookbook(engine, 'links', '/fidelity.html');
          assertOk(elsewhere, 'links');
          assert.ok(elsewhere.lines.includes("[no same-origin links: the page's 1 link leads to other sites or schemes, which are not listed]"), elsewhere.stdout);
        }
      });

      test('perf: navigation timing and the slowest resources', async () => {
        const r = await cookbook(engine, 'perf', '/');
        assertOk(r, 'perf');
        assertLabelsInOrder(r, 'perf');
        const nav = JSON.parse(value(r.lines, 'NAV=')!);
        for (const k of ['ttfb', 'domContentLoaded', 'load']) assert.ok(Number.isFinite(nav[k]) && nav[k] >= 0, `${k}: ${nav[k]}`);
        assert.ok(nav.load >= nav.domContentLoaded && nav.domContentLoaded >= nav.ttfb, JSON.stringify(nav));
        assert.ok(Array.isArray(JSON.parse(value(r.lines, 'RESOURCES=')!)));
        // A page with a slow and a quick subresource: slowest first, and topResources cuts the list.
        const p = await cookbook(engine, 'perf', '/perf.html');
        assertOk(p, 'perf');
        const res = JSON.parse(value(p.lines, 'RESOURCES=')!) as Array<{ url: string; duration: number }>;
        assert.ok(res.length >= 2, p.stdout);
        assert.match(res[0].url, /\/slow\?ms=400$/);
        assert.ok(res[0].duration >= 350, JSON.stringify(res[0]));
        for (let i = 1; i < res.length; i++) assert.ok(res[i - 1].duration >= res[i].duration, JSON.stringify(res));
        const top1 = await cookbook(engine, 'perf', '/perf.html', { topResources: 1 });
        assert.equal(JSON.parse(value(top1.lines, 'RESOURCES=')!).length, 1, top1.stdout);
        await parity(engine, r, 'perf', '/');
      });

      test('pdf: a real PDF of the page', async () => {
        const r = await cookbook(engine, 'pdf', '/');
        assertOk(r, 'pdf');
        assertLabelsInOrder(r, 'pdf');
        const pdf = join(r.out, 'page.pdf');
        assert.equal(pdfInfo(pdf).Pages, '1');
        assert.match(squash(pdfText(pdf)), /Fixture Home/);
        await parity(engine, r, 'pdf', '/');
        // Trial V2: a site's sidebar took a column of every page; hide and css leave it out.
        const hidden = await cookbook(engine, 'pdf', '/', { hide: ['h1'], css: 'body { margin: 0 !important; }' });
        assertOk(hidden, 'pdf');
        assert.doesNotMatch(squash(pdfText(join(hidden.out, 'page.pdf'))), /Fixture Home/);
        if (engine === 'chromium') {
          const ranged = await cookbook(engine, 'pdf', '/large.html', { pageRanges: '1' });
          assertOk(ranged, 'pdf');
          assert.equal(pdfInfo(join(ranged.out, 'page.pdf')).Pages, '1');
          // Trial V23: the browser prints no margin unless asked, and the text ran to the
          // paper's edge. 10 mm (28.3 pt) by default, beside the page's own padding.
          const bare = await cookbook(engine, 'pdf', '/', { margin: '0mm' });
          assertOk(bare, 'pdf');
          const added = leftmostWordX(pdf) - leftmostWordX(join(bare.out, 'page.pdf'));
          assert.ok(Math.abs(added - 28.35) < 1, `the default margin moved the text ${added} pt in (10 mm is 28.35 pt)`);
        }
      });

      test('element-shot: one element, cropped, with its text', async () => {
        const r = await cookbook(engine, 'element-shot', '/', { selector: 'h1' });
        assertOk(r, 'element-shot');
        assertLabelsInOrder(r, 'element-shot');
        assert.deepEqual(between(r.lines, 'TEXT_START', 'TEXT_END'), ['Fixture Home']);
        const { width, height } = pngSize(join(r.out, 'element.png'));
        assert.ok(height < 100 && width < 1280, `cropped to the heading: ${width}x${height}`);
        await parity(engine, r, 'element-shot', '/', { selector: 'h1' });
      });

      test('form: fills by label, leaves secret fields alone, never submits', async () => {
        const r = await cookbook(engine, 'form', '/form.html', { fields: { Username: 'alice', Password: 'hunter2', 'Remember me': true, Plan: 'pro' } });
        assertOk(r, 'form');
        assertLabelsInOrder(r, 'form');
        assert.deepEqual(all(r.lines, 'FIELD '), [
          'Username: filled',
          'Password: skipped (secret field: the user fills it in)',
          'Remember me: checked',
          'Plan: selected pro',
        ]);
        assert.ok(!r.stdout.includes('hunter2'), 'the secret never appears');
        const snap = between(r.lines, 'SNAPSHOT_START', 'SNAPSHOT_END').join('\n');
        assert.match(snap, /textbox "Username".*: alice/);
        assert.ok(!snap.includes('Welcome'), 'not submitted');
        assert.deepEqual(all(r.lines, 'URL='), [`${server.origin}/form.html`, `${server.origin}/form.html`]);
        await parity(engine, r, 'form', '/form.html', { fields: { Username: 'alice', Password: 'hunter2', 'Remember me': true, Plan: 'pro' } });
      });
    });
  }


  if (!committed) return;

  describe('shape branches that need a non-local target', () => {
    test('links on a non-local target lists links unfetched as LINK ? and requests none of them', async () => {
      // The fixture can only be local, so the script's own local test is overridden: this checks
      // the non-local branch of the real shape script, nothing else is changed.
      const script = buildScript(findShape('links')!, { url: server.url });
      const nonLocal = script.replace(/^const isLocal = .*$/m, 'const isLocal = false;');
      assert.notEqual(nonLocal, script);
      const before = server.requests.length;
      const r = await runCli(['run', '-', '--engine', 'chromium'], { env: { GSTACK_HOME: home }, input: nonLocal });
      assertOk(r, 'links (non-local)');
      const links = r.lines.filter((l) => l.startsWith('LINK '));
      assert.ok(links.length >= 5 && links.every((l) => l.startsWith('LINK ? ')), links.join('\n'));
      assert.ok(links.includes(`LINK ? ${server.origin}/form.html`));
      const fetched = server.requests.slice(before).filter((q) => q.path !== '/' && q.path !== '/favicon.ico');
      assert.deepEqual(fetched, []);
    });

    test('flow on a non-local target refuses to act until the user confirmed', async () => {
      const script = buildScript(findShape('flow')!, { url: server.url, steps: [{ action: 'click', name: 'Click me' }] });
      const nonLocal = script.replace(/^const isLocal = .*$/m, 'const isLocal = false;');
      const r = await runCli(['run', '-', '--engine', 'chromium'], { env: { GSTACK_HOME: home }, input: nonLocal });
      assert.equal(r.code, 1);
      assert.match(r.lines.at(-1)!, /^\[error\].*not a local target: acting on it needs the user's confirmation/);
      assert.ok(!r.lines.some((l) => l.startsWith('STEP ')), 'no step ran');
    });
  });

  describe('committed scripts run as they are', () => {
    const EXAMPLE_ORIGIN = 'http://127.0.0.1:8080';

    test('every generated/cookbook/*.js runs with gstack run -f', async () => {
      const dir = join(ROOT, 'generated', 'cookbook');
      const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
      assert.equal(files.length, SHAPES.length);
      for (const f of files) {
        const source = readFileSync(join(dir, f), 'utf8');
        assert.ok(source.includes(EXAMPLE_ORIGIN), `${f} uses the documented example origin`);
        const r = await runCli(['run', '-', '--engine', 'chromium'], { env: { GSTACK_HOME: home }, input: source.replaceAll(EXAMPLE_ORIGIN, server.origin) });
        assertOk(r, f);
        assertLabelsInOrder(r, f.replace(/\.js$/, ''));
      }
    });

    test('every complete script in the generated skills (cores and references) runs', async () => {
      const scripts: Array<{ where: string; code: string }> = [];
      for (const skill of readdirSync(join(ROOT, 'generated')).filter((d) => existsSync(join(ROOT, 'generated', d, 'SKILL.md')))) {
        for (const doc of ['SKILL.md', 'REFERENCE.md'].filter((f) => existsSync(join(ROOT, 'generated', skill, f)))) {
          const text = readFileSync(join(ROOT, 'generated', skill, doc), 'utf8');
          for (const m of text.matchAll(/^```js\n([\s\S]*?)^```$/gm)) scripts.push({ where: `${skill}/${doc}:${text.slice(0, m.index).split('\n').length}`, code: m[1] });
        }
      }
      assert.ok(scripts.length >= 3);
      for (const s of scripts) {
        // A saved flow's example reads its inputs from `params` (the reference's "Saved flows"):
        // it runs as `gstack run --params` would run it, on the fixture sign-up page.
        const params = /\bparams\b/.test(s.code) ? ['--params', JSON.stringify({ url: `${server.origin}/signup.html`, email: 'a@example.com' })] : [];
        // The evidence example runs on a page that logs an error as it loads: its hook must
        // catch it (a trial agent found the example missing the `Page.enable` that makes
        // Chromium run the hook at all; it printed an empty list).
        const evidence = s.code.includes('EVIDENCE_HOOK') && s.code.includes('CONSOLE_ERRORS=');
        let code = s.code.replaceAll(EXAMPLE_ORIGIN, server.origin);
        if (evidence) code = code.replace(`"${server.origin}/"`, `"${server.origin}/console-error.html"`);
        const r = await runCli(['run', '-', '--engine', 'chromium', ...params], { env: { GSTACK_HOME: home }, input: code });
        assert.equal(r.code, 0, `${s.where}\n${r.stdout}\n${r.stderr}`);
        assert.equal(r.lines.at(-1), 'GSTACK_STEP_OK', s.where);
        if (evidence) assert.match(value(r.lines, 'CONSOLE_ERRORS=') ?? '', /uncaught boom on load/, `${s.where}: the hook caught the page's error\n${r.stdout}`);
      }
    });
  });
}
