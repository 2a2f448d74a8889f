// Which texts of a page's scan a screenshot masks (driver/runtime/secret-mask.ts): those that
// hold a part of a secret's span in the texts joined by line breaks, so a value split over two
// text nodes (a highlighter's tokens) masks both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textsInSpans } from '../driver/runtime/secret-mask.js';
import { forgetSecrets, learnSecrets, seenSecretSpans } from '../driver/runtime/output.js';

test('a span marks each text it touches, and no other', () => {
  const texts = ['curl -X POST', "-H 'X-API-Key: ", "Zq7kL93pXv2Wm88r'", 'Content-Type'];
  const joined = texts.join('\n');
  const at = joined.indexOf('Zq7k');
  assert.deepEqual(textsInSpans(texts, [[at, at + 16]]), [2]);
  assert.deepEqual(textsInSpans(texts, [[at - 3, at + 2]]), [1, 2], 'a span across a line break marks both texts');
  assert.deepEqual(textsInSpans(texts, []), []);
});

test('the spans are the line cut\'s: a seen value found as a page spells it (%-encoded)', () => {
  forgetSecrets();
  try {
    learnSecrets(['Zq7kL93p/Xv2Wm88r']);
    const texts = ['Request URL', 'http://127.0.0.1/orders?key=Zq7kL93p%2FXv2Wm88r', 'Nothing here'];
    const spans = seenSecretSpans(texts.join('\n'));
    assert.ok(spans);
    assert.deepEqual(textsInSpans(texts, spans), [1]);
  } finally {
    forgetSecrets();
  }
});
