// Item 6 of the security promises (the list heads security.e2e.test.ts), the rule alone: which
// fields a snapshot treats as secret (driver/snapshot.ts isSecretField), by name at word
// boundaries and by autocomplete token. The snapshots that apply it run in security.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('6. the secret-field rule: whole words at camelCase/digit/punctuation boundaries, any case, and autocomplete tokens', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/snapshot.js');
  const secret = (hint: string, extra: { type?: string; autocomplete?: string } = {}) => isSecretField({ hints: [hint], ...extra }, SECRET_RULES);
  for (const h of ['userPassword', 'accessToken', 'passwordConfirm', 'pwd', 'otp', 'apiKey', 'APIKey', 'x-api-key', 'PASSWORD', 'new_password2', 'otpCode', 'pinCode', 'PIN', 'cardNumber', 'ccnum', 'oneTimeCode', 'Enter your password', 'client_secret', 'csrf_token', 'privateKey', 'cvv2', 'Passwort']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['pineapple', 'passenger', 'compass', 'topic', 'username', 'email', 'spinner', 'Passport number', 'secretary', 'tokenizer', 'keyword', 'zip code', 'promo code', 'opinion', 'bypass']) {
    assert.ok(!secret(h), `${h} should not be secret`);
  }
  assert.ok(secret('x', { type: 'PASSWORD' }));
  for (const ac of ['current-password', 'new-password', 'one-time-code', 'cc-number', 'section-pay billing CC-EXP', 'cc-csc']) assert.ok(secret('x', { autocomplete: ac }), ac);
  for (const ac of ['username', 'email', 'off', 'password']) assert.ok(!secret('x', { autocomplete: ac }), ac);
});
