// On/off flags given twice or given a value (bin/commands/flags.ts repeatedSwitch), checked with
// the catalog's own flags: yargs keeps the last of two and reads any value but true as off, so a
// careless command line would silently mean its opposite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oddNumber, repeatedSwitch } from '../bin/commands/flags.js';
import { loadCatalog, resolveCommand } from '../driver/catalog.js';

const catalog = loadCatalog();
const flagsOf = (name: string) => resolveCommand(catalog.commands.find((c) => c.name === name)!, catalog).flags;

test('an on/off flag given twice is refused however it is spelled, camelCase included', () => {
  // Thirteenth red-team pass: the camelCase spelling was not counted.
  const cases: Array<[string, string[]]> = [
    ['run', ['--allow-file-urls=false', '--allowFileUrls']],
    ['run', ['--no-allow-file-urls', '--allowFileUrls']],
    ['run', ['--allowFileUrls=false', '--allowFileUrls']],
    ['run', ['--json', '--no-json']],
    ['mcp', ['--allow-scripts=false', '--allowScripts']],
    ['sessions', ['--dry-run', '--dryRun=false']],
    ['pdf', ['--allow-network=false', '--allowNetwork']],
  ];
  for (const [command, argv] of cases) {
    const err = repeatedSwitch(argv, flagsOf(command));
    assert.ok(err, `${command} ${argv.join(' ')} is refused`);
    assert.match(err.message, /is given 2 times/);
  }
  assert.equal(repeatedSwitch(['--allow-file-urls'], flagsOf('run')), undefined);
  assert.equal(repeatedSwitch(['--allowFileUrls=true'], flagsOf('run')), undefined);
  assert.equal(repeatedSwitch(['--', '--json', '--json'], flagsOf('run')), undefined, 'words after -- are not flags');
});

test('an on/off flag given a value other than true or false is refused, naming both spellings', () => {
  for (const word of ['--json=yes', '--json=1', '--allow-file-urls=on', '--evidence=maybe']) {
    const err = repeatedSwitch([word], flagsOf('run'));
    assert.ok(err, word);
    assert.match(err.message, /is on or off: give it as --[\w-]+ or --no-[\w-]+ \(or =true \/ =false\), not /);
  }
  assert.equal(repeatedSwitch(['--json=false'], flagsOf('run')), undefined);
});

test('a number flag spelled as hex, an exponent or with spaces is refused; plain decimals pass', () => {
  // Red-team notes (pass 31): yargs read `0x10`, `1e3` and ` 100` through Number().
  for (const argv of [['--timeout', '0x10'], ['--timeout=1e3'], ['--timeout', ' 100'], ['--lockTimeout', '1_000'], ['--max-output', 'Infinity'], ['--timeout', '']]) {
    const err = oddNumber(argv, flagsOf('run'));
    assert.ok(err, argv.join(' '));
    assert.match(err.message, /^--[\w-]+ (takes a plain decimal number \(like \d+\)|must be a whole number of milliseconds from 1 to 86400000 \(24 h\)); got /);
  }
  const scale = oddNumber(['--scale', '.5'], flagsOf('pdf'));
  assert.match(scale?.message ?? '', /--scale takes a plain decimal number/);
  for (const argv of [['--timeout', '5000'], ['--timeout=250'], ['--scale', '1.5'], ['--', '--timeout', '0x10'], ['--timeout', '--json']]) {
    assert.equal(oddNumber(argv, flagsOf(argv.includes('--scale') ? 'pdf' : 'run')), undefined, argv.join(' '));
  }
});
