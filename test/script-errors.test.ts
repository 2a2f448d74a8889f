// What the [error] line says of an error the script's own code threw (driver/runtime/sandbox.ts
// describeThrown): JavaScript's own errors name the script line they came from (trial V4: a
// TypeError said no line, while a syntax error did); an Error the script or a cookbook shape
// threw on purpose, and the tool's own errors, keep their words as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { compileScript, describeThrown } from '../driver/runtime/sandbox.js';
import { AgentError } from '../driver/errors.js';

/** What a script throws when run as the sandbox runs it (compiled as flow.js, its line 1 first). */
async function thrownBy(script: string): Promise<unknown> {
  const ctx = vm.createContext({});
  try {
    await (compileScript(script, []).runInContext(ctx) as Promise<unknown>);
  } catch (err) {
    return err;
  }
  throw new Error('the script did not throw');
}

test('a TypeError or ReferenceError in the script names its line; a thrown Error and the tool\'s own do not', async () => {
  assert.match(describeThrown(await thrownBy('const a = 1;\nconst b = undefined;\nb.match(/x/);'), []), /^TypeError: Cannot read properties of undefined \(reading 'match'\) \(line 3\)$/);
  assert.match(describeThrown(await thrownBy('\n\nnotDefined();'), ['openTab']), /notDefined is not defined\. .*\(line 3\)$/);
  assert.equal(describeThrown(await thrownBy('const x = 1;\nthrow new Error("Payment failed");'), []), 'Payment failed');
  assert.equal(describeThrown(new AgentError('Ref e1 is stale. Take a new snapshot.'), []), 'Ref e1 is stale. Take a new snapshot.');
});
