// The error a render fails with, whichever folder of render/ finds the problem: a value that
// carries its exit code, with a message that says what happened and what to do next.

/** A render that failed. exitCode: 1 render failure, 2 bad spec/usage, 3 no engine. */
export class RenderError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3 = 1,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}
