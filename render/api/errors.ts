// The error a render fails with, whichever folder of render/ finds the problem: a value that
// carries its exit code, with a message that says what happened and what to do next.

import { GstackError } from '../../driver/errors.js';
import type { ExitName } from '../../driver/catalog.gen.js';

/** A render that failed: SCRIPT_FAILED (the page or a step failed), USAGE (a bad spec) or
 * NO_ENGINE (no browser could run it). */
export class RenderError extends GstackError {
  constructor(message: string, exit: Extract<ExitName, 'SCRIPT_FAILED' | 'USAGE' | 'NO_ENGINE'> = 'SCRIPT_FAILED') {
    super(message, exit);
  }
}
