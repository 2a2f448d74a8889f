// Peak memory of a process tree (the CLI and the browser it starts), sampled every few ms with
// the same reader `sessions list` uses (driver/hosts/proc-rss.ts).
import { treeRssKb } from '../../driver/hosts/proc-rss.js';

export { treeRssKb };

/** Samples until stop() and returns the peak in MiB. Several roots (a CLI and the host
 * that runs its call and browser) are summed. */
export function sampleTree(root: number | number[], everyMs = 40): { stop(): number } {
  const roots = Array.isArray(root) ? root : [root];
  let peak = 0;
  const tick = () => {
    peak = Math.max(peak, roots.reduce((sum, r) => sum + (treeRssKb(r) ?? 0), 0));
  };
  const timer = setInterval(tick, everyMs);
  tick();
  return {
    stop() {
      clearInterval(timer);
      return Math.round(peak / 1024);
    },
  };
}
