// Peak memory of a process tree (the CLI and the browser it starts): sums VmRSS over the
// tree from /proc every few ms. RSS counts shared pages once per process, so it overstates the
// true cost; it is the same measure for both sides of a comparison.
import { readFileSync, readdirSync } from 'node:fs';

function children(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(d));
      map.set(ppid, list);
    } catch {
      /* exited */
    }
  }
  return map;
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export function treeRssKb(root: number): number {
  const kids = children();
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    total += rssKb(p);
    stack.push(...(kids.get(p) ?? []));
  }
  return total;
}

/** Samples until stop() and returns the peak in MiB. Several roots (a CLI and the host
 * that runs its call and browser) are summed. */
export function sampleTree(root: number | number[], everyMs = 40): { stop(): number } {
  const roots = Array.isArray(root) ? root : [root];
  let peak = 0;
  const tick = () => {
    peak = Math.max(peak, roots.reduce((sum, r) => sum + treeRssKb(r), 0));
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
