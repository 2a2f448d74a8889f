// What every engine (chromium, aside, remote) gets and gives back. The runner (driver/runner/run-script.ts)
// owns the output filter and computes the exit code from this outcome; an engine only runs
// the script and reports lines.

export type { EngineName } from '../catalog.gen.js';
import type { TabEvidence } from '../runtime/evidence.js';
import type { LineOptions } from '../runtime/output.js';
import type { CallDeadline } from '../deadline.js';

export interface EngineRunInput {
  script: string;
  /** This call's artifact directory (chromium). Aside uses its own per-run pwd. */
  pwd: string;
  /** The call's deadline (driver/deadline.ts), started by the runner: the engine ends the
   * script, and kills its browser or CLI, when it expires. */
  deadline: CallDeadline;
  /** Each evidence line the script prints, in order (the runner filters and caps them), and
   * whether it may be read as the sentinel (output.ts LineOptions). */
  onLine: (line: string, opts?: LineOptions) => void;
  /** Aborted on SIGINT/SIGTERM of the CLI: stop and clean up at once. */
  signal?: AbortSignal;
  /** A notice for stderr (not evidence): what the call decided that the script should know. */
  onNotice?: (line: string) => void;
  /** The script's `params` global (catalog "params"): `{}` when the call has none. */
  params?: Readonly<Record<string, unknown>>;
  /** Take each open tab's evidence when the call fails (default on; `--no-evidence`). */
  evidence?: boolean;
  /** The script completed but the call fails anyway (it printed no sentinel): the runner
   * knows, the engine asks before its tabs close. */
  failsAnyway?: () => boolean;
}

export interface EngineRunOutcome {
  /** The script ran to its end without throwing. */
  completed: boolean;
  /** Why it did not complete, already rewritten for agents (no "[error]" prefix). */
  error?: string;
  timedOut?: boolean;
  /** Where the script's artifacts are (chromium: input.pwd; aside: last ASIDE_DIR= line). */
  artifactDir?: string;
  /** Each open tab's evidence, taken before the tabs closed (a failed call, evidence on). */
  evidence?: TabEvidence[];
  /** A failed call without evidence (--no-evidence): where its open tabs were, for the sign-in
   * hint (Chromium only). */
  tabsAtFailure?: Array<Pick<TabEvidence, 'url' | 'networkErrors'>>;
  /** A failed call: some open tab did not answer, so its secret fields could not be read to
   * cut them from the `[error]` line (which may quote the page's markup). */
  unreadTabs?: boolean;
}
