// The result of one script call: what `runScript` returns and the one JSON object
// `gstack run --json` prints. Owns its shape and its one builder, used by every place that
// ends a call with such an object: the runner (driver/runner/run-script.ts), the client that loses its host
// (driver/hosts/client.ts) and the watchdog's last line (driver/cli/process-io.ts). Its fields are the ones
// the catalog's `--json` flag names (RUN_RESULT_FIELDS, generated): a field added, dropped or
// renamed on one side only is a compile error below.
import type { EngineName, ExitCode, RunResultField } from '../catalog.gen.js';
import type { TabEvidence } from './evidence.js';

export interface RunSessionInfo {
  key: string;
  source: string;
  slug: string;
  profile: string | null;
  ephemeral: boolean;
}

export interface RunResult {
  ok: boolean;
  exitCode: ExitCode;
  engine: EngineName | null;
  /** Null when the call ended before its session was known (the watchdog's last line). */
  session: RunSessionInfo | null;
  lines: string[];
  /** Files the script wrote under pwd (copied paths when `out` was given). */
  artifacts: string[];
  /** The images among `artifacts` whose bytes hold the value of a secret field the call saw
   * (driver/runtime/artifact-secrets.ts): `--out` leaves such a file in pwd, and `gstack mcp`
   * attaches none of them (pass 40, A40). */
  withheld: string[];
  /** The message of the final `[error]` line, or null on success. */
  error: string | null;
  /** Null when the call was ended from outside the runner (its duration is not known there). */
  durationMs: number | null;
  /** This call's artifact directory (it outlives the call). */
  pwd: string | null;
  /** A failed call's evidence, one entry per tab that was open (driver/runtime/evidence.ts), with
   * screenshot paths as reported (the `--out` copy when given); null when the call succeeded,
   * evidence was off, or the call failed before a script ran. */
  evidence: TabEvidence[] | null;
}

// Both directions: every catalog field is in RunResult, and RunResult has no other.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const fieldsMatchCatalog: Exactly<keyof RunResult, RunResultField> = true;
void fieldsMatchCatalog;

/** A RunResult: `ok` follows from the exit code; what a caller leaves out is empty or null. */
export function runResult(r: Pick<RunResult, 'exitCode' | 'error'> & Partial<Omit<RunResult, 'ok' | 'exitCode' | 'error'>>): RunResult {
  return {
    ok: r.exitCode === 0,
    exitCode: r.exitCode,
    engine: r.engine ?? null,
    session: r.session ?? null,
    lines: r.lines ?? [],
    artifacts: r.artifacts ?? [],
    withheld: r.withheld ?? [],
    error: r.error,
    durationMs: r.durationMs ?? null,
    pwd: r.pwd ?? null,
    evidence: r.evidence ?? null,
  };
}
