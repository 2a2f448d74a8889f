// The five-step flow the call benchmarks run (flow.ts, call-cost.ts).

/** The five steps, each timed inside the script (STEP lines), so a call splits into its steps
 * and everything else (client start, hand-off, session lock, answer). */
export function flowScript(url: string): string {
  return `let t = Date.now(); const lap = (n) => { const now = Date.now(); console.log("STEP " + n + " " + (now - t)); t = now; };
const pg = await openTab(${JSON.stringify(url)}); lap("open+goto");
const s = await snapshot(pg, { interactive: true }); lap("snapshot");
const ref = (re) => re.exec(s.tree)[1];
await pg.locator(ref(/textbox "Username" \\[ref=(e\\d+)\\]/)).fill("bench"); lap("fill");
await pg.locator(ref(/button "Sign in" \\[ref=(e\\d+)\\]/)).click(); lap("click");
await pg.screenshot({ path: path.join(pwd, "shot.png") }); lap("screenshot");
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;
}
