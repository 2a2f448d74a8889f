// The baseline: a plain Playwright script doing the same five steps as the gstack flow
// (launch a persistent profile, open a local page, AI snapshot, fill + click, screenshot,
// close). Usage: node plain-playwright.mjs URL PROFILE_DIR SHOT_PATH CHROMIUM
const [url, profileDir, shot, executablePath] = process.argv.slice(2);
const { chromium } = await import('playwright-core');
const args = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
if (process.getuid?.() === 0) args.push('--no-sandbox');
const context = await chromium.launchPersistentContext(profileDir, { executablePath, headless: true, args });
const page = context.pages()[0] ?? (await context.newPage());
await page.goto(url);
const tree = await page.ariaSnapshot({ mode: 'ai' });
const ref = (re) => re.exec(tree)[1];
await page.locator(`aria-ref=${ref(/textbox "Username" \[ref=(e\d+)\]/)}`).fill('bench');
await page.locator(`aria-ref=${ref(/button "Sign in" \[ref=(e\d+)\]/)}`).click();
await page.screenshot({ path: shot });
await context.close();
console.log('PLAIN_OK');
