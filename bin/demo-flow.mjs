// The set-up's proof of life: serves the fixture site on 127.0.0.1 (no network needed) and
// runs one real flow through the built CLI — open, snapshot, fill + click by ref, screenshot.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join, normalize } from 'node:path';

const root = fileURLToPath(new URL('../test/fixtures/site/', import.meta.url));
const server = http.createServer(async (req, res) => {
  const rel = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^([/\\])+/, '');
  try {
    const body = await readFile(join(root, rel || 'index.html'));
    res.writeHead(200, { 'content-type': rel.endsWith('.html') || !rel ? 'text/html; charset=utf-8' : 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/form.html`;

const script = `
const pg = await openTab(${JSON.stringify(url)});
const s = await snapshot(pg, { interactive: true });
console.log(s.tree);
const ref = (label) => new RegExp(label + '.*\\\\[ref=(e\\\\d+)\\\\]').exec(s.tree)[1];
await pg.locator(ref('textbox "Username"')).fill("setup-check");
await pg.locator(ref('button "Sign in"')).click();
console.log("RESULT=" + await pg.textContent("#result"));
console.log("URL=" + pg.url());
await pg.screenshot({ path: path.join(pwd, "signed-in.png") });
console.log("SCREENSHOT=" + path.join(pwd, "signed-in.png"));
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;

const bin = fileURLToPath(new URL('../dist/bin/gstack.cjs', import.meta.url));
const child = spawn(process.execPath, [bin, 'run', script, '--engine', 'chromium', '--ephemeral'], { stdio: 'inherit' });
const code = await new Promise((r) => child.on('close', r));
server.close();
if (code !== 0) {
  console.error(`setup: the demo flow failed (exit ${code}); see the [error] line above.`);
  process.exit(code ?? 1);
}
