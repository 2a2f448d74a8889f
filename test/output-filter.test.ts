import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutputFilter, oneLine, stripControls, terminalSafe, wellFormed } from '../driver/runtime/output.js';

const make = (maxBytes: number) => {
  const out: string[] = [];
  return { out, f: new OutputFilter({ maxBytes, emit: (l) => out.push(l) }) };
};

test('lone surrogates are replaced, pairs are kept', () => {
  assert.equal(wellFormed('a\uD800b'), 'a\uFFFDb');
  assert.equal(wellFormed('x\uDC00'), 'x\uFFFD');
  assert.equal(wellFormed('😀'), '😀');
});

test('output past the cap is dropped with a marker; the sentinel is never cut', () => {
  const { out, f } = make(20);
  f.write('0123456789');
  f.write('abcdefghijklmnop');
  f.write('more');
  f.write('GSTACK_STEP_OK');
  f.finish();
  assert.deepEqual(out, ['0123456789', '[truncated 22 bytes]', 'GSTACK_STEP_OK']);
  assert.ok(f.sawSentinel);
});

test('the error line comes last, after the marker, and is one line', () => {
  const { out, f } = make(5);
  f.write('GSTACK_STEP_OK');
  f.write('way too long line');
  f.finish('boom\nsecond line');
  // The sentinel is held back to the end (so ARTIFACT lines can precede it); the error is last.
  assert.deepEqual(out, ['[truncated 18 bytes]', 'GSTACK_STEP_OK', '[error] boom second line']);
});

test('multi-line writes count per line; an [error line after the sentinel is noticed', () => {
  const { out, f } = make(1000);
  f.write('a\nb\r\nc');
  f.write('GSTACK_STEP_OK');
  f.write('[error] thrown later');
  assert.deepEqual(out, ['a', 'b', 'c', '[error] thrown later']);
  assert.equal(f.errorAfterSentinel, true);
  f.finish('the script printed an error line after GSTACK_STEP_OK');
  assert.deepEqual(out.slice(-2), ['GSTACK_STEP_OK', '[error] the script printed an error line after GSTACK_STEP_OK']);
});

test('the sentinel comes after the runner\'s closing lines (ARTIFACT) and is the last line of a success', () => {
  const { out, f } = make(1000);
  f.write('GSTACK_STEP_OK');
  f.write('late page line');
  f.finish(undefined, ['ARTIFACT /out/a.png']);
  assert.deepEqual(out, ['late page line', 'ARTIFACT /out/a.png', 'GSTACK_STEP_OK']);
});

test('terminal escapes and control characters from a page never reach the terminal', () => {
  const { out, f } = make(1000);
  f.write('red \u001b[31mtext\u001b[0m \u001b]0;title\u0007bell\u0007 nul\u0000 tab\tok');
  // Each escape sequence is one U+FFFD: what it did is not done, and that it was there shows.
  assert.deepEqual(out, ['red \uFFFDtext\uFFFD \uFFFDbell\uFFFD nul\uFFFD tab\tok']);
});

test('the [error] line goes through the same escape filter (an error message can carry page text)', () => {
  const { out, f } = make(1000);
  f.finish('Error: \u001b]0;pwned\u0007boom \u001b[31mred\u001b[0m\nnext');
  assert.deepEqual(out, ['[error] Error: \uFFFDboom \uFFFDred\uFFFD next']);
});

test('8-bit C1 sequences, stray C1 controls and bidi overrides/isolates never pass either', () => {
  const { out, f } = make(1000);
  f.write('a\u009d0;title\u009cb \u009b2Jc \u0085nel \u202eevil\u202c \u2066iso\u2069 \u009dunterminated');
  assert.deepEqual(out, ['a\uFFFDb \uFFFDc \uFFFDnel \uFFFDevil\uFFFD \uFFFDiso\uFFFD \uFFFDunterminated']);
});

test('terminalSafe keeps lines and tabs, makes CRLF a newline, and is idempotent', () => {
  const dirty = 'one\r\ntwo\tcols\u001b[2J\rover\n\u001bcthree\n';
  const clean = terminalSafe(dirty);
  assert.equal(clean, 'one\ntwo\tcols\uFFFD\uFFFDover\n\uFFFDthree\n');
  assert.equal(terminalSafe(clean), clean);
  assert.equal(stripControls('x\ny'), 'x\uFFFDy', 'a newline inside one line is a control too');
});

test('oneLine drops a library call log and folds lines', () => {
  assert.equal(oneLine('page.goto: boom\nCall log:\n  - navigating to "x"\n'), 'page.goto: boom');
  assert.equal(oneLine('first\n  second\tthird  '), 'first second third');
});

test('a value that becomes the sentinel only once controls are stripped is page text, not the sentinel', () => {
  for (const forged of ['GSTACK_STEP_OK\x1b[0m', '\u200BGSTACK_STEP_OK', 'GSTACK_STEP_OK\u00AD']) {
    const { out, f } = make(10_000);
    f.write(forged);
    assert.equal(f.sawSentinel, false, JSON.stringify(forged)); // runScript's verdict reads this
    f.finish('no sentinel of its own');
    assert.equal(out.at(-1), '[error] no sentinel of its own', JSON.stringify(forged));
  }
  const { out, f } = make(10_000);
  f.write('GSTACK_STEP_OK');
  assert.equal(f.sawSentinel, true);
  f.finish();
  assert.equal(out.at(-1), 'GSTACK_STEP_OK');
});

// Red-team pass 31 (A31): the control filter wrote `\b` (and `\202`, `\x4`, `\7`) between quotes
// as U+FFFD before the secret cut ran, so a verbatim copy of a password holding a backslash
// escape printed whole: `TITLE=Signed in as "Tr0ub4dor�&3-Horse!"`.
test('a seen secret holding a backslash escape is cut before the control filter re-spells it', async () => {
  const { learnSecrets, forgetSecrets, shownLine } = await import('../driver/runtime/output.js');
  const values = ['Tr0ub4dor\\b&3-Horse!', 'Winter\\2023!Sky', 'Osprey\\x4Lake-88', 'Sunny\\7Days-2291', 'Kestrel\x1b[31mPlover-2291'];
  learnSecrets(values);
  try {
    for (const v of values) {
      for (const line of [`TITLE=Signed in as "${v}"`, `[error] password "${v}" is too weak`]) {
        const shown = shownLine(line);
        assert.match(shown, /\[redacted\]/, `${JSON.stringify(line)} -> ${JSON.stringify(shown)}`);
        for (const part of v.split(/\\|\x1b\[31m/)) if (part.length >= 4) assert.ok(!shown.includes(part), `${JSON.stringify(part)} of ${JSON.stringify(v)} in ${JSON.stringify(shown)}`);
      }
    }
    const lines: string[] = [];
    const f = new OutputFilter({ maxBytes: 1 << 20, emit: (l) => lines.push(l) });
    f.write(`TITLE=Signed in as "${values[0]}"`);
    assert.deepEqual(lines, ['TITLE=Signed in as "[redacted]"']);
  } finally {
    forgetSecrets();
  }
});

// Pass 38 (A38): the page's own 4-character PIN, cut first inside a frame's 48-character
// password, broke the copy into pieces too short for the frame's value to match.
test('a seen value inside another origin\'s longer value: both are cut in one go, the longer whole', async () => {
  const { cutSeenSecrets, forgetSecrets, learnSecrets, learnForeignSecrets, FOREIGN_SECRET_MARK } = await import('../driver/runtime/output.js');
  forgetSecrets();
  const long = 'Kd3Wn7PqHjXc8Mb2Vn6Tq1R5tYLc2Vb9XsGfPw4Zr7Hy3Nm5';
  learnSecrets(['R5tY']);
  learnForeignSecrets([long]);
  assert.equal(cutSeenSecrets(`Your key: ${long}`), `Your key: ${FOREIGN_SECRET_MARK}`);
  assert.equal(cutSeenSecrets('PIN R5tY'), 'PIN [redacted]');
  // The other way round: the page's long value holding a frame's short one is cut whole too.
  forgetSecrets();
  learnSecrets([long]);
  learnForeignSecrets(['R5tY']);
  assert.equal(cutSeenSecrets(`key ${long} end`), `key ${FOREIGN_SECRET_MARK} end`);
  forgetSecrets();
});
