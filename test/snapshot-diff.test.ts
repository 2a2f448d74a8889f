// Diffs that read like what happened (issue 25; driver/runtime/snapshot.ts `diffTrees`), on trees as
// Playwright's AI snapshot prints them (taken from Chromium): a modal that opens re-roots the
// tree and, under aria-hidden, prints the page behind it in another form; that is one line,
// not the whole page changing. Context lines stay in page order. Also: how a stale ref names the
// element it was (describeLine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_CHANGE_DIFF, diffTrees } from '../driver/runtime/snapshot.js';

const PAGE = `- main [ref=e2]:
  - heading "Orders" [level=1] [ref=e3]
  - list [ref=e4]:
    - listitem [ref=e5]: Order 1
    - listitem [ref=e6]: Order 2
    - listitem [ref=e7]: Order 3
  - button "Save" [ref=e8]
  - paragraph [ref=e9]: ready`;

// Playwright's tree with a role=dialog aria-modal open and the page behind it aria-hidden.
const WITH_MODAL = `- generic [ref=e1]:
  - main [aria-hidden] [ref=e2]:
    - heading [level=1] [ref=e10]: Orders
    - list [ref=e4]:
      - listitem [ref=e5]: Order 1
      - listitem [ref=e6]: Order 2
      - listitem [ref=e7]: Order 3
    - button [active] [ref=e11]: Save
    - paragraph [ref=e9]: ready
  - dialog "Save 1 change?" [ref=e12]:
    - paragraph [ref=e13]: You have one change.
    - button "Confirm" [ref=e14]`;

const AFTER = PAGE.replace('paragraph [ref=e9]: ready', 'paragraph [ref=e9]: 1 change saved');

test('a modal that hides the page is one line, with the dialog tree under it', () => {
  const d = diffTrees(PAGE, WITH_MODAL, { before: false, now: true });
  assert.equal(
    d,
    [
      'dialog "Save 1 change?" opened; the page behind it is hidden (8 lines)',
      '+   - dialog "Save 1 change?" [ref=e12]:',
      '+     - paragraph [ref=e13]: You have one change.',
      '+     - button "Confirm" [ref=e14]',
    ].join('\n'),
  );
});

test('closing it is one line too, then what really changed behind it', () => {
  const d = diffTrees(WITH_MODAL, AFTER, { before: true, now: false });
  assert.equal(
    d,
    [
      'dialog "Save 1 change?" closed; the page behind it is back (8 lines)',
      '    - button "Save" [ref=e8]',
      '-     - paragraph: ready',
      '+   - paragraph [ref=e9]: 1 change saved',
    ].join('\n'),
  );
});

test('aria-hidden alone says the page behind is hidden; a dialog that hides nothing is just opened', () => {
  assert.match(diffTrees(PAGE, WITH_MODAL, { before: false, now: false }), /^dialog "Save 1 change\?" opened; the page behind it is hidden/);
  const plain = WITH_MODAL.replace(' [aria-hidden]', '').replace('heading [level=1] [ref=e10]: Orders', 'heading "Orders" [level=1] [ref=e3]').replace('button [active] [ref=e11]: Save', 'button "Save" [active] [ref=e8]');
  assert.equal(diffTrees(PAGE, plain).split('\n')[0], 'dialog "Save 1 change?" opened');
  assert.equal(diffTrees(PAGE, plain).split('\n').length, 4, 'no background lines: nothing changed behind it');
});

test('context lines stay in page order', () => {
  const before = `- heading "Cart" [level=1] [ref=e1]
- list [ref=e2]:
  - listitem [ref=e3]: Apples 1
  - listitem [ref=e4]: Pears
- paragraph [ref=e5]: total 2
- button "Pay" [ref=e6]`;
  const after = before.replace('Apples 1', 'Apples 2').replace('total 2', 'total 3');
  // The second change's nearest shallower line above it is \`- list\`, which was shown as the
  // first change's context: it is not printed again after it, out of page order.
  assert.deepEqual(diffTrees(before, after).split('\n'), [
    '  - list [ref=e2]:',
    '-   - listitem: Apples 1',
    '+   - listitem [ref=e3]: Apples 2',
    '- - paragraph: total 2',
    '+ - paragraph [ref=e5]: total 3',
  ]);
});

test('a stale ref names an unnamed element by its own text (trial V5: "(generic)" named nothing)', async () => {
  const { describeLine, parseLine } = await import('../driver/runtime/snapshot.js');
  assert.equal(describeLine(parseLine('    - generic [ref=e5]: Coffee Shop')), 'generic with text "Coffee Shop"');
  assert.equal(describeLine(parseLine('    - generic [ref=e6]: "4.50"')), 'generic with text "4.50"');
  assert.equal(describeLine(parseLine('  - button "Save" [ref=e7]')), 'button "Save"');
  assert.equal(describeLine(parseLine('  - generic [ref=e8]:')), 'generic');
  assert.equal(describeLine(parseLine(`  - generic [ref=e9]: ${'x'.repeat(80)}`)), `generic with text "${'x'.repeat(59)}…"`);
});

test('a line that only gained the pointer cursor (and a new ref) is no change; a real change beside it still shows (trials V5, V6)', () => {
  const before = '- main [ref=e1]:\n  - button "Save" [ref=e2]\n  - link "Help" [ref=e3]:\n    - /url: /help';
  const drawn = '- main [ref=e1]:\n  - button "Save" [ref=e7] [cursor=pointer]\n  - link "Help" [ref=e3] [cursor=pointer]:\n    - /url: /help';
  assert.equal(diffTrees(before, drawn), NO_CHANGE_DIFF);
  const changed = diffTrees(before, drawn.replace('button "Save"', 'button "Saved"'));
  assert.match(changed, /^- .*button "Save"/m);
  assert.match(changed, /^\+ .*button "Saved" \[ref=e7\] \[cursor=pointer\]/m);
});

// Trial V31 (Verdaccio's sign-in dialog): the header's "Login" button, nameless behind the open
// dialog, became the account button, which has no words at all; the diff said only that the
// dialog closed. Only the side the dialog hid may lack words.
test('a line that had words behind an open dialog and has none once it closed is a change, not the page coming back', () => {
  const before = ['- combobox [ref=e51]', '- button [ref=e52] [cursor=pointer]: Login', '- dialog "Sign in" [ref=e270]:', '  - textbox "Username" [ref=e284]'].join('\n');
  const after = ['- combobox "Search Packages" [ref=e17]', '- button [ref=e300] [cursor=pointer]'].join('\n');
  assert.deepEqual(diffTrees(before, after, { before: true, now: false }).split('\n'), [
    'dialog "Sign in" closed; the page behind it is back (2 lines)',
    '  - combobox "Search Packages" [ref=e17]',
    '- - button [cursor=pointer]: Login',
    '+ - button [ref=e300] [cursor=pointer]',
  ]);
});
