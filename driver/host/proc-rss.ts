// Resident memory of a process, and of a process with all its descendants (Linux /proc), in
// KiB: what `sessions list` shows for a host's browser, and what the benchmarks sample. RSS
// counts shared pages once per process, so a tree's sum overstates its true cost; it is the
// same measure wherever it is compared. Elsewhere (no /proc) both say undefined.
import { readdirSync, readFileSync } from 'node:fs';

/** VmRSS of one process, KiB; undefined when it is gone or there is no /proc. */
export function rssKb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Every live process's children, by parent pid. */
function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // The command name in parentheses may hold spaces: the ppid is the second field after it.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      (children.get(ppid) ?? children.set(ppid, []).get(ppid)!).push(Number(d));
    } catch {
      /* exited meanwhile */
    }
  }
  return children;
}

/** VmRSS of `root` and all its descendants, KiB; undefined without a root or without /proc. */
export function treeRssKb(root: number | undefined): number | undefined {
  if (!root) return undefined;
  try {
    const children = childrenByParent();
    let total = 0;
    const queue = [root];
    const seen = new Set<number>();
    while (queue.length) {
      const pid = queue.pop()!;
      if (seen.has(pid)) continue;
      seen.add(pid);
      total += rssKb(pid) ?? 0;
      queue.push(...(children.get(pid) ?? []));
    }
    return total;
  } catch {
    return undefined;
  }
}
