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

/** PSS of one process, KiB (shared pages split between the processes that map them: what a
 * process really costs when many browsers share one machine); undefined when it is gone. */
export function pssKb(pid: number): number | undefined {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** `read` summed over `root` and all its descendants, KiB; undefined without a root or /proc. */
function treeSum(root: number | undefined, read: (pid: number) => number | undefined): number | undefined {
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
      total += read(pid) ?? 0;
      queue.push(...(children.get(pid) ?? []));
    }
    return total;
  } catch {
    return undefined;
  }
}

/** VmRSS of `root` and all its descendants, KiB; undefined without a root or without /proc. */
export const treeRssKb = (root: number | undefined): number | undefined => treeSum(root, rssKb);

/** PSS of `root` and all its descendants, KiB (the benchmarks' measure of an idle session). */
export const treePssKb = (root: number | undefined): number | undefined => treeSum(root, pssKb);
