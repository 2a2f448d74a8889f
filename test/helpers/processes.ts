// Processes a test leaves behind, or must not: the live processes that mention a profile or a
// socket in their command line, waiting for them to go, and process groups (Linux /proc).
import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';

function isZombie(pid: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // gone
  }
}

/** Live processes whose command line mentions `fragment` (e.g. a profile dir). */
export async function processesMentioning(fragment: string): Promise<Array<{ pid: number; cmd: string }>> {
  const out: Array<{ pid: number; cmd: string }> = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmd: string;
    try {
      cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').join(' ');
    } catch {
      continue;
    }
    if (cmd.includes(fragment) && !isZombie(name)) out.push({ pid: Number(name), cmd: cmd.slice(0, 160) });
  }
  return out;
}

/** Waits up to `ms` for no live process to mention `fragment`; returns what is left. */
export async function waitNoProcesses(fragment: string, ms = 3000): Promise<Array<{ pid: number; cmd: string }>> {
  const until = Date.now() + ms;
  for (;;) {
    const left = await processesMentioning(fragment);
    if (!left.length || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILL a process group, ignoring a group that is already gone. */
export function killGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* gone */
  }
}

/** The process group id of a pid (Linux /proc). */
export function pgidOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}
