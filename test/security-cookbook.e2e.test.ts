// Attacks on the cookbook's promises (docs/SECURITY.md, "The page is hostile"): the links shape
// requests same-origin links only, never a sign-out or destructive one, and never lets a page
// or a redirect steer it elsewhere. A hostile page on a real loopback site, a second loopback
// server as the victim that records every request, `gstack cookbook links` on Chromium and on
// the Aside test double.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, runCli, tempHome, type CliResult } from './helpers/cli.js';

let site: FixtureServer;
let victim: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  // Another origin (same host, another port): what the page would like the check to reach.
  victim = await startFixtureServer();
  home = tempHome('gstack-sec-cookbook-');
});
after(async () => {
  await site?.close();
  await victim?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const ENGINES = {
  chromium: () => ({ GSTACK_HOME: home }),
  aside: () => ({ GSTACK_HOME: home, PATH: `${join(ROOT, 'test', 'doubles')}:${process.env.PATH}`, ASIDE_DOUBLE_HOME: join(home, 'aside') }),
} as const;

/** (a) The page replaces the built-ins an in-page collector would use, so that "its links"
 * include the victim's URLs with a forged `origin` equal to the page's own. */
const forgingPage = (victimOrigin: string) => `<!doctype html><title>forged links</title>
<a href="/form.html">Form</a>
<a href="${victimOrigin}/plain-other-origin">Other origin</a>
<script>
  const forged = [${JSON.stringify(`${victimOrigin}/account/%64elete?confirm=yes`)}, ${JSON.stringify(`${victimOrigin}/profile`)}].map((href) => ({
    href, origin: location.origin, textContent: "Docs", getAttribute: () => href,
  }));
  const from0 = Array.from;
  Array.from = function (...args) { return from0.apply(Array, args).concat(forged); };
  const qsa0 = Document.prototype.querySelectorAll;
  Document.prototype.querySelectorAll = function (...args) { return from0(qsa0.apply(this, args)).concat(forged); };
</script>`;

for (const engine of Object.keys(ENGINES) as Array<keyof typeof ENGINES>) {
  describe(`cookbook links against a hostile page on ${engine}`, () => {
    let r: CliResult;
    let siteSeen: FixtureServer['requests'];
    let victimSeen: FixtureServer['requests'];
    before(async () => {
      site.setPage(`/hostile-${engine}.html`, forgingPage(victim.origin) +
        // (b) destructive words behind %-escapes, on the page's own origin.
        `<a href="/%64elete-account">Account</a><a href="/log%6Fut">Bye</a><a href="/account/%2564elete">Twice</a>` +
        // Pass 34 (B35): sign-out words of other languages %-encoded as UTF-8, as browsers send them.
        `<a href="/d%C3%A9connexion">Mon compte</a><a href="/%E3%83%AD%E3%82%B0%E3%82%A2%E3%82%A6%E3%83%88">Profile</a><a href="/%D0%B2%D1%8B%D0%B9%D1%82%D0%B8">Settings</a>` +
        // (c) a same-origin link that redirects to another origin's destructive URL.
        `<a href="/r/guide">Guide</a>`);
      site.setRedirect('/r/guide', `${victim.origin}/account/delete`);
      const siteBefore = site.requests.length;
      const victimBefore = victim.requests.length;
      r = await runCli(['cookbook', 'links', '--url', `${site.origin}/hostile-${engine}.html`, '--engine', engine], { env: ENGINES[engine](), timeoutMs: 120_000 });
      siteSeen = site.requests.slice(siteBefore);
      victimSeen = victim.requests.slice(victimBefore);
      assert.equal(r.code, 0, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
      // The ordinary same-origin link is still checked: the shape did its job.
      assert.ok(r.lines.includes(`LINK 200 ${site.origin}/form.html`), r.stdout);
    });

    test('(a) links a page forges through replaced built-ins are never requested on another origin', () => {
      assert.deepEqual(victimSeen.filter((q) => q.path !== '/account/delete'), [], `the victim was reached:\n${r.stdout}`);
      assert.ok(!r.stdout.includes(`${victim.origin}/profile`), `a forged other-origin link is not even listed:\n${r.stdout}`);
    });

    test('(b) sign-out and delete links behind %-escapes are listed, never requested', () => {
      for (const path of ['/%64elete-account', '/log%6Fut', '/account/%2564elete', '/d%C3%A9connexion', '/%E3%83%AD%E3%82%B0%E3%82%A2%E3%82%A6%E3%83%88', '/%D0%B2%D1%8B%D0%B9%D1%82%D0%B8']) {
        assert.ok(r.lines.some((l) => l.startsWith(`LINK ? ${site.origin}${path} (not followed`)), `${path}:\n${r.stdout}`);
        assert.deepEqual(siteSeen.filter((q) => q.path === path), [], `${path} was requested`);
      }
    });

    test('(c) a same-origin link that redirects to another origin is reported, and the redirect is not followed', () => {
      assert.ok(r.lines.includes(`LINK 3xx ${site.origin}/r/guide (redirect not followed)`), r.stdout);
      assert.ok(siteSeen.some((q) => q.path === '/r/guide' && q.method === 'HEAD'), 'the link itself was checked');
      assert.deepEqual(victimSeen, [], 'the redirect was followed to the victim');
    });
  });
}

// Fifth red-team pass: the words a person reads on a link (an icon's aria-label, an image's
// alt, a word split by a soft hyphen, other languages) and the flow's guards, checked where
// each step acts.
describe('cookbook guards hold on what a person sees and where a step acts', () => {
  test('links never requests a sign-out or destructive link, whatever the link shows it by', async () => {
    site.setPage('/words.html', [
      '<a href="/w/s14" aria-label="Log out">⎋</a>', '<a href="/w/s13"><img alt="Logout"></a>', '<a href="/w/s11">Log&shy;out</a>',
      '<a href="/w/s12" title="Sign out">→</a>', '<a href="/session/destroy">x</a>', '<a href="/account/deactivate">y</a>', '<a href="/w/revoke">z</a>',
      '<a href="/w/de">Abmelden</a>', '<a href="/w/fr">Déconnexion</a>', '<a href="/w/ja">ログアウト</a>', '<a href="/w/ru">Выйти</a>',
      '<a href="/form.html">Form</a>',
    ].join(''));
    const before = site.requests.length;
    const r = await runCli(['cookbook', 'links', '--url', `${site.origin}/words.html`], { env: { GSTACK_HOME: home }, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const asked = site.requests.slice(before).map((q) => q.path);
    assert.ok(asked.includes('/form.html'), `the harmless link is checked: ${asked}`);
    for (const p of ['/w/s14', '/w/s13', '/w/s11', '/w/s12', '/session/destroy', '/account/deactivate', '/w/revoke', '/w/de', '/w/fr', '/w/ja', '/w/ru']) {
      assert.ok(!asked.includes(p), `${p} was requested:\n${r.stdout}`);
      assert.ok(r.lines.some((l) => l.startsWith(`LINK ? ${site.origin}${p} (not followed`)), `${p}:\n${r.stdout}`);
    }
  });

  test('flow asks for confirmation where a step acts: after a link to another site, inside another site\'s frame; it never types into type="PASSWORD"', async () => {
    // [::ffff:7f00:1] reaches this machine but is not a local name: it stands for another site.
    const other = `http://[::ffff:7f00:1]:${new URL(site.origin).port}`;
    site.setPage('/pay.html', '<title>Pay</title><button onclick="fetch(\'/PAID\')">Pay now</button>');
    site.setPage('/leave.html', `<a href="${other}/pay.html">Checkout</a>`);
    site.setPage('/framed.html', `<iframe src="${other}/pay.html" width="400" height="200"></iframe>`);
    site.setPage('/upper.html', '<label>Secret <input type="PASSWORD" id="p"></label>');
    const flow = (path: string, steps: object[]) =>
      runCli(['cookbook', 'flow', '--url', `${site.origin}${path}`, '--params', JSON.stringify({ steps })], { env: { GSTACK_HOME: home }, timeoutMs: 120_000 });
    const before = site.requests.length;
    const left = await flow('/leave.html', [{ action: 'click', name: 'Checkout' }, { action: 'click', role: 'button', name: 'Pay now' }]);
    assert.equal(left.code, 1, left.stdout);
    assert.match(left.lines.at(-1)!, /^\[error\] .*Step 2 would act on http:\/\/\[::ffff:7f00:1\].*not a local target/, left.stdout);
    const framed = await flow('/framed.html', [{ action: 'click', role: 'button', name: 'Pay now' }]);
    assert.equal(framed.code, 1, framed.stdout);
    assert.match(framed.lines.at(-1)!, /^\[error\] .*Step 1 would act on http:\/\/\[::ffff:7f00:1\].*not a local target/, framed.stdout);
    assert.ok(!site.requests.slice(before).some((q) => q.path === '/PAID'), 'nothing was paid');
    const upper = await flow('/upper.html', [{ action: 'fill', role: 'textbox', name: 'Secret', value: 'hunter2' }]);
    assert.equal(upper.code, 1, upper.stdout);
    assert.match(upper.lines.at(-1)!, /Refusing to type into a password field/, upper.stdout);
  });
});

// Sixth red-team pass: a word rule can be disguised, so a link check carries no cookies unless
// asked; a label can stand for a hidden password input, and a field can turn secret on focus.
describe('cookbook guards that a disguise cannot pass', () => {
  test('links sends no cookies unless signedIn, so a disguised sign-out link cannot act as the user', async () => {
    site.setPage('/disguised.html', '<a href="/w/bye">Sign\n      out</a><a href="/api/me">Me</a>');
    const signIn = await runCli(['run', `const pg = await openTab(${JSON.stringify(site.origin + '/set-cookie?name=sid&value=LIVE')}); console.log("COOKIES " + (await pg.context().cookies()).map((c) => c.name + "=" + c.value).join(",")); console.log("GSTACK_STEP_OK")`], { env: { GSTACK_HOME: home } });
    // The session is signed in (a check that would carry cookies has one to carry).
    assert.match(signIn.stdout, /COOKIES .*sid=LIVE/, signIn.stdout + signIn.stderr);
    const before = site.requests.length;
    const r = await runCli(['cookbook', 'links', '--url', `${site.origin}/disguised.html`], { env: { GSTACK_HOME: home }, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const checks = site.requests.slice(before).filter((q) => q.method === 'HEAD');
    assert.ok(checks.length >= 1, r.stdout);
    assert.ok(checks.every((q) => !String(q.cookie ?? '').includes('sid=')), JSON.stringify(checks));
    // With signedIn the same checks carry the session's cookie: the one above was there to carry.
    const beforeSigned = site.requests.length;
    const signed = await runCli(['cookbook', 'links', '--url', `${site.origin}/disguised.html`, '--params', '{"signedIn":true}'], { env: { GSTACK_HOME: home }, timeoutMs: 120_000 });
    assert.equal(signed.code, 0, signed.stdout + signed.stderr);
    const signedChecks = site.requests.slice(beforeSigned).filter((q) => q.method === 'HEAD');
    assert.ok(signedChecks.some((q) => String(q.cookie ?? '').includes('sid=LIVE')), signed.stdout);
    // "Sign\n out" reads "Sign out" (white space folded): not requested even signed in.
    assert.ok(!site.requests.slice(beforeSigned).some((q) => q.path === '/w/bye'), signed.stdout);
  });

  test('flow never types into a password field a label stands for, or one that turns secret on focus', async () => {
    site.setPage('/pwflow.html', '<label for="pw"><span role="textbox" aria-label="Search" style="display:inline-block;width:120px;height:20px;border:1px solid">&nbsp;</span></label><input type="password" id="pw"><input aria-label="Query" onfocus="this.type=\'password\'"><style>.m:focus{-webkit-text-security:disc}</style><input aria-label="Notes" class="m">');
    for (const name of ['Search', 'Query', 'Notes']) {
      const r = await runCli(['cookbook', 'flow', '--url', `${site.origin}/pwflow.html`, '--params', JSON.stringify({ steps: [{ action: 'fill', name, value: 'typed-value' }] })], { env: { GSTACK_HOME: home }, timeoutMs: 120_000 });
      assert.equal(r.code, 1, `${name}: ${r.stdout}`);
      assert.match(r.lines.at(-1)!, /Refusing to type into a password field/, `${name}: ${r.stdout}`);
    }
    // Pass 33 (B33): a field that turns into a password field on the first key (keydown for
    // `type`, beforeinput for `fill`) got the whole value; `press` on a password field typed.
    site.setPage('/flip.html', '<label>Username <input id="u"></label><label>Other <input id="o"></label><label>PIN <input id="p" type="password"></label><script>u.addEventListener("keydown", () => { u.type = "password"; }); o.addEventListener("beforeinput", () => { o.type = "password"; });</script>');
    for (const [action, name, value, why] of [['type', 'Username', 'hunter2secret', /turned the field into a password field while it was typed into; its value was cleared/], ['fill', 'Other', 'hunter2secret', /turned the field into a password field/], ['press', 'PIN', '7', /Refusing to type into a password field/]] as const) {
      const r = await runCli(['cookbook', 'flow', '--url', `${site.origin}/flip.html`, '--params', JSON.stringify({ steps: [{ action, name, value }] })], { env: { GSTACK_HOME: home }, timeoutMs: 120_000 });
      assert.equal(r.code, 1, `${action} ${name}: ${r.stdout}`);
      assert.match(r.lines.at(-1)!, why, `${action} ${name}: ${r.stdout}`);
    }
    const enter = await runCli(['cookbook', 'flow', '--url', `${site.origin}/flip.html`, '--params', JSON.stringify({ steps: [{ action: 'press', name: 'PIN', value: 'Enter' }] })], { env: { GSTACK_HOME: home }, timeoutMs: 120_000 });
    assert.equal(enter.code, 0, `Enter on a password field types nothing: ${enter.stdout}${enter.stderr}`);
  });
});
