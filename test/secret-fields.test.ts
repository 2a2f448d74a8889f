// Item 6 of the security promises (the list heads security.e2e.test.ts), the rule alone: which
// fields a snapshot treats as secret (driver/runtime/snapshot.ts isSecretField), by name at word
// boundaries and by autocomplete token. The snapshots that apply it run in security.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('6. the secret-field rule: whole words at camelCase/digit/punctuation boundaries, any case, and autocomplete tokens', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
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

test('22 G7. the rule knows tokens, second factors and other languages, and still leaves keyword fields alone', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['jwt', 'JWT token', 'mfaCode', 'MFA', '2FA code', 'Two-factor code', 'Bearer', 'sessionId', 'Session ID', 'Recovery code', 'Seed phrase', 'Contraseña', 'Clave de acceso', 'Hasło', 'Passord', 'Şifre', 'Código de verificación', 'パスワードを入力', '请输入密码', '비밀번호', 'Ｐａｓｓｗｏｒｄ']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['Palabra clave', 'parola chiave', 'session name', 'factor', 'Recovery email', 'Seed']) {
    assert.ok(!secret(h), `${h} should not be secret`);
  }
});

// Eighth red-team pass: standard secret labels of the languages the doc names.
test('22 pass 8. card numbers, security and confirmation codes, TANs in the listed languages are secret', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['Kartennummer', 'Einmalpasswort', 'Wiederherstellungscode', 'Geheimzahl', 'TAN', 'PUK', 'Sicherheitscode', 'Bestätigungscode', 'Número de tarjeta', 'Código de seguridad', 'Numéro de carte', 'Code de sécurité', 'Código de verificação', 'Beveiligingscode', 'Kod weryfikacyjny', 'Parola', 'Kart numarası', 'Код подтверждения', 'Номер карты', 'Credit card', 'SMS code', 'Login code', 'Confirmation code', 'Authenticator code', 'SSH key']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['parola chiave', 'Tangent', 'Card holder', 'Confirmation email', 'Login name']) assert.ok(!secret(h), `${h} should not be secret`);
});

// Ninth red-team pass: compounds, CJK card and code words, session cookies by name, marks on letters.
test('22 pass 9. compound words, card words of CJK, session names, and labels with marks on their letters are secret', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['Kreditkartennummer', 'Verifizierungscode', 'カード番号', '카드 번호', '银行卡号', 'ПИН-код', 'lykilorð', 'palavra-passe', 'verifieringskod', 'vahvistuskoodi', 'korttinumero', 'creditcard', 'cardNo', 'sid', 'PHPSESSID', 'csrfmiddlewaretoken', 'Social security number', 'P\u0332assword', 'Passwo\u0301rd']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['side', 'sidebar', 'Subscription ID', 'Card holder']) assert.ok(!secret(h), `${h} should not be secret`);
});

// Pass 38's notes: abbreviations and Spanish "clave" alone.
test('22 pass 38. pswd, privkey and a Clave field are secret; a keyword (palabra clave, clave de búsqueda) is not', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['pswd', 'user_pswd', 'privkey', 'ssh-privkey', 'Clave', 'Clave Única', 'Ingrese su clave']) assert.ok(secret(h), `${h} should be secret`);
  for (const h of ['Palabra clave', 'Palabras clave', 'Punto clave', 'Clave de búsqueda', 'Cookbook', 'cookiecutter']) assert.ok(!secret(h), `${h} should not be secret`);
});

test('22 item 2. a value from the page carries the page mark wherever it holds the sentinel', async () => {
  const { defuseSentinel, PAGE_SENTINEL, SENTINEL } = await import('../driver/runtime/output.js');
  assert.equal(defuseSentinel(SENTINEL), PAGE_SENTINEL);
  assert.notEqual(PAGE_SENTINEL, SENTINEL);
  assert.equal(defuseSentinel(`a ${SENTINEL} b`), `a ${PAGE_SENTINEL} b`);
  const nested = { text: SENTINEL, list: ['x', SENTINEL], [SENTINEL]: 1, map: new Map([['k', SENTINEL]]) };
  const d = defuseSentinel(nested) as { text: string; list: string[]; map: Map<string, string> };
  assert.equal(d.text, PAGE_SENTINEL);
  assert.deepEqual(d.list, ['x', PAGE_SENTINEL]);
  assert.ok(!(SENTINEL in d) && PAGE_SENTINEL in d);
  assert.equal(d.map.get('k'), PAGE_SENTINEL);
  assert.equal(nested.text, SENTINEL, 'the original is not changed');
  assert.equal(defuseSentinel(Buffer.from(SENTINEL)).toString(), PAGE_SENTINEL);
  // Tenth pass: a RegExp the page returned.
  const re = defuseSentinel(new RegExp(SENTINEL, 'g'));
  assert.ok(!re.source.split(/\\?\[|\\?\]/).includes(SENTINEL) && re.source.includes('page text') && re.flags === 'g', re.source);
  const plain = { a: 'x', b: [1, 2] };
  assert.equal(defuseSentinel(plain), plain, 'nothing to mark: the same object');
  const cyclic: Record<string, unknown> = { s: SENTINEL };
  cyclic.self = cyclic;
  assert.equal((defuseSentinel(cyclic) as Record<string, unknown>).s, PAGE_SENTINEL);
});

test('22 (second pass). a field the snapshot names with a secret word is cut, whatever its markup; a secret select\'s options too', async () => {
  const { redact } = await import('../driver/runtime/snapshot.js');
  const tree = [
    '- textbox "Password" [ref=e62]: SEC36hiddenspan',
    '- textbox "API key" [ref=e13]: SEC74apikeyhidden',
    '- slider "Password" [ref=e30]: "12345678"',
    '- combobox "API token" [ref=e15]:',
    '  - option "TOKSEL-LEAK-24" [selected]',
    '  - option "other"',
    '- listbox "Password" [ref=e16]:',
    '  - option "LISTBOX-LEAK-25" [selected]',
    '- paragraph: echo SEC36hiddenspan',
    '- textbox "Name" [ref=e2]: visible-name',
    '- combobox "Country" [ref=e3]:',
    '  - option "France" [selected]',
  ].join('\n');
  const out = redact(tree, { own: [], all: [] });
  for (const s of ['SEC36hiddenspan', 'SEC74apikeyhidden', '12345678', 'TOKSEL-LEAK-24', 'LISTBOX-LEAK-25']) assert.ok(!out.includes(s), `${s} leaked:\n${out}`);
  assert.match(out, /textbox "Password" \[ref=e62\]: \[redacted\]/);
  assert.match(out, /- option "\[redacted\]" \[selected\]/);
  assert.match(out, /visible-name/);
  assert.match(out, /- option "France" \[selected\]/, 'a select not named secret keeps its options');
});

// Trial V28 (Verdaccio's sign-in): a password field's placeholder was learned as its value, and
// its words cut the user name field's hint ("[redacted] username").
test('a secret field\'s placeholder is its hint, not its value: kept, and not cut from other lines; what was typed still is', async () => {
  const { redact } = await import('../driver/runtime/snapshot.js');
  const { cutSeenSecrets, forgetSecrets } = await import('../driver/runtime/output.js');
  forgetSecrets();
  const tree = [
    '- textbox "Username" [ref=e2]:',
    '  - /placeholder: Your username',
    '- textbox "Password" [ref=e3]:',
    '  - /placeholder: Your strong password',
    '- textbox "API key" [ref=e4]: typed-KEY-9731',
    '- paragraph [ref=e5]: Your strong password is kept here, and so is typed-KEY-9731',
  ].join('\n');
  const out = redact(tree, { own: [], all: [] });
  assert.match(out, /^  - \/placeholder: Your username$/m);
  assert.match(out, /^  - \/placeholder: Your strong password$/m);
  assert.match(out, /textbox "API key" \[ref=e4\]: \[redacted\]/);
  assert.match(out, /paragraph \[ref=e5\]: Your strong password is kept here, and so is \[redacted\]$/m);
  assert.equal(cutSeenSecrets('- /placeholder: Your username'), '- /placeholder: Your username');
  // A typed password copied into a placeholder is cut there like anywhere else.
  const copied = redact('- textbox "Password" [ref=e3]:\n  - /placeholder: hunter2-Copied', { own: ['hunter2-Copied'], all: ['hunter2-Copied'] });
  assert.ok(!copied.includes('hunter2-Copied'), copied);
  forgetSecrets();
});

// Fifteenth red-team pass (A15): an ad frame's password field holding "Payment failed" cut the
// page's own alert from the snapshot a script checked. The main frame's lines are cut with its
// own origin's values; the lines inside an iframe with every frame's.
test('redact cuts the main frame\'s lines with its own origin\'s secrets and an iframe\'s lines with every frame\'s', async () => {
  const tree = [
    '- alert [ref=e2]: Payment failed',
    '- iframe [ref=e3]:',
    '  - textbox "Password" [ref=f1e2]: AD-SECRET-1',
    '  - paragraph: Payment failed',
    '- paragraph: own OWN-SECRET-2',
  ].join('\n');
  const { redact } = await import('../driver/runtime/snapshot.js');
  const out = redact(tree, { own: ['OWN-SECRET-2'], all: ['Payment failed', 'OWN-SECRET-2', 'AD-SECRET-1'] });
  assert.match(out, /^- alert \[ref=e2\]: Payment failed$/m);
  assert.match(out, /^  - paragraph: \[redacted\]$/m);
  assert.match(out, /^- paragraph: own \[redacted\]$/m);
  assert.ok(!out.includes('AD-SECRET-1'), out);
});

// Eighteenth red-team pass (A18): labels and field names of card, code and key fields the word
// lists lacked; the words that name other things beside them stay plain.
test('card verification, authorization and sign-in codes, keys and short field names are secret; postal codes and pan sizes are not', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  for (const h of ['Card verification value', 'Clé API', 'Authorization code', 'Sign-in code', 'Email code', '6-digit code', 'Enter the code we texted you', '2-Step Verification', 'Card code', 'CID', 'Encryption key', 'Master key', 'Passkey', 'Session cookie', 'Cryptogramme visuel', 'Prüfnummer', 'Código', 'pw', 'newPw', 'pan', 'authcode']) {
    assert.ok(isSecretField({ hints: [h] }, SECRET_RULES), `${h} is secret`);
  }
  for (const h of ['Código postal', 'Pan size', 'Postal code', 'Promo code', 'Country code', 'Email', 'Search']) assert.equal(isSecretField({ hints: [h] }, SECRET_RULES), false, `${h} is plain`);
});

// Seventeenth red-team pass (A17): an ambiguous-locator error cut a textarea of recovery codes
// whole (Playwright's preview writes its line break as ↵) but not one of its codes the page put
// in another matched element's title; the codes are learned for later lines too.
test('each line and code of a field an error quotes is cut from the whole error and learned', async () => {
  const { redactElementValues } = await import('../driver/errors.js');
  const { cutSeenSecrets, forgetSecrets } = await import('../driver/runtime/output.js');
  forgetSecrets();
  const msg = `strict mode violation: locator('.t') resolved to 2 elements:\n    1) <textarea class="t" name="recovery_codes">k7Qp-2Xv9\u21B5m3Wz-8Rt4</textarea>\n    2) <span class="t" title="backup m3Wz-8Rt4">x</span>`;
  const out = redactElementValues(msg);
  assert.ok(!out.includes('k7Qp-2Xv9') && !out.includes('m3Wz-8Rt4'), out);
  assert.equal(cutSeenSecrets('TITLE copy k7Qp-2Xv9'), 'TITLE copy [redacted]');
  forgetSecrets();
});

test('22 pass 20. recovery and access keys, emergency and scratch codes, and their names in the listed languages are secret', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['Recovery key', 'Emergency codes', 'Scratch codes', 'Authentication code', 'Magic link code', 'Personal access token', 'Authorization header', 'Cookie value', 'Network key', 'Wi-Fi key', 'Security key', 'Unlock code', 'Memorable word', 'Wiederherstellungsschlüssel', 'Clé de récupération', 'Clave de recuperación', 'Ключ восстановления', '恢复密钥', '回復キー', '복구 키', '인증 코드', 'Bekreftelseskode', 'Authentifizierungscode', 'Zugangscode', "Code d'accès", 'Toegangscode', 'Transaktionsnummer']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['Recovery email', 'Network name', 'Security question', 'Cookie policy', 'Memorable date', 'Unlock date', 'Pat Smith']) assert.ok(!secret(h), `${h} should not be secret`);
});

test('22 pass 21. network keys, card check numbers, bank one-time codes, security answers and licence keys are secret', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['WPA Pre-Shared Key', 'WPA2-PSK', 'Wireless key', 'WEP key', 'Code confidentiel', 'Kartenprüfnummer', 'Kod BLIK', 'Code à usage unique', 'Clave de seguridad', 'Clave dinámica', 'Kod SMS', 'Код из СМС', 'Security answer', 'License key', 'Product key', 'Activation key', 'Serial key']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['Wireless network', 'Product name', 'Security question', 'License plate', 'Serial number']) assert.ok(!secret(h), `${h} should not be secret`);
});

// Trial t26 (Swagger UI): its OAuth2 `<select id="password_type">` (basic / request-body) was
// read as a secret, so every "basic" on the page and in the agent's own selectors was cut.
test('a choice named for a kind of secret (password_type, token type) holds none; a text field so named still does', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const choice = (hint: string) => isSecretField({ hints: [hint], choice: true }, SECRET_RULES);
  const text = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['password_type', 'Token type', 'tokenType', 'API key location', 'grant: password flow', 'PIN length']) {
    assert.ok(!choice(h), `a select named ${h} should not be secret`);
    assert.ok(text(h), `a text field named ${h} should still be secret`);
  }
  for (const h of ['Password', 'Security question password', 'password type password', 'API key', 'PIN']) assert.ok(choice(h), `a select named ${h} should be secret`);
});

// Pass 27 (A27): a secret-named parameter given as a list or object, or a secret key inside an
// ordinary parameter, was not learned.
test('the values under a secret-named parameter are learned at any depth, and a secret key inside an ordinary one', async () => {
  const { secretParamValues } = await import('../driver/runner/run-script.js');
  assert.deepEqual(secretParamValues({ password: 'a1', url: 'http://x/' }), ['a1']);
  assert.deepEqual(secretParamValues({ password: ['l1', { value: 'o1' }], token: 42 }), ['l1', 'o1', '42']);
  assert.deepEqual(secretParamValues({ creds: { password: 'n1', user: 'u' }, users: [{ name: 'x', apiKey: 'k1' }] }), ['n1', 'k1']);
  assert.deepEqual(secretParamValues(undefined), []);
});

// Thirty-fourth red-team pass (A34): names written in one case with no hump or separator
// (`adminpassword`, `apitoken`) were saved as a flow's defaults and printed in snapshots.
test('22 pass 34. a secret word glued to another in one case, a phrase written as one word, and whole headers are secret', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['adminpassword', 'newpassword', 'oldpassword', 'dbpassword', 'passwordconfirm', 'newpassword1', 'apitoken', 'accesstoken', 'authtoken', 'githubtoken', 'csrftoken', 'CSRFTOKEN', 'refreshtoken', 'secretkey', 'clientsecret', 'openaiapikey', 'otpcode', 'smscode', 'verificationcode', 'motdepasse', 'losenord', 'auth', 'Authorization', 'cookieHeader', 'hmac', 'signingKey', 'connection_string', 'DATABASE_URL']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['author', 'tokenizer', 'secretary', 'compass', 'bypass', 'zipcode', 'postcode', 'countrycode', 'barcode', 'promocode', 'shipping', 'cookies accepted banner', 'database name', 'passport']) {
    assert.ok(!secret(h), `${h} should not be secret`);
  }
});

// Thirty-sixth pass (A36): the listed kinds of secret in the listed languages, as labels write them.
test('22 pass 36. keys, one-time and recovery codes and passwords of the listed languages are secret; keywords are not', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (hint: string) => isSecretField({ hints: [hint] }, SECRET_RULES);
  for (const h of ['패스워드', 'Συνθηματικό', 'Kod jednorazowy', 'API-Schlüssel', 'Clé privée', 'Одноразовый код', 'Personal identification number', 'Geheimnummer', 'PINコード', 'Einmalcode', 'Engångskod', 'Eenmalige code', 'Privater Schlüssel', 'Sicherheitsschlüssel', 'WLAN-Schlüssel', 'Clave API', 'Clave privada', 'Chave privada', 'API-sleutel', 'Klucz prywatny', 'Özel anahtar', 'Privat nyckel', 'Yksityinen avain', 'Закрытый ключ', 'API-ключ', 'Ιδιωτικό κλειδί', '私钥', 'API 密钥', '秘密鍵', 'APIキー', '개인 키', 'API 키', "Jeton d'accès", 'Токен доступа', 'アクセストークン', 'Code de récupération', 'Kurtarma kodu', 'Kod zabezpieczający', 'Αριθμός κάρτας', 'Sitzungs-ID', 'Identifiant de session', 'Кодовое слово', '合言葉', 'apiSchluessel', 'claveApi', 'chavePrivada', 'kluczApi', 'clePrivee']) {
    assert.ok(secret(h), `${h} should be secret`);
  }
  for (const h of ['Schlüsselwort', 'Palabra clave', 'Clave de búsqueda', 'Code postal', 'Kod pocztowy', 'API documentation', 'Session name']) assert.ok(!secret(h), `${h} should not be secret`);
});

test('a hint that lists example values (an account name\'s "e.g. Bank, Savings, Credit Card, Cash") does not make a field secret; one that names the field still does', async () => {
  const { isSecretField, SECRET_RULES } = await import('../driver/runtime/snapshot.js');
  const secret = (...hints: string[]) => isSecretField({ hints }, SECRET_RULES);
  for (const h of ['e.g. Bank, Savings, Credit Card, Cash', 'E.g.: Checking or Credit card', 'for example: API key, SSH key', 'z. B. Girokonto, Kreditkarte, Bargeld', 'p. ex. compte courant, carte de crédit, espèces', 'eg. token, cookie']) {
    assert.ok(!secret(h), `${h} lists examples`);
  }
  // One item is a description, not a list; other hints still count; a password input is one whatever its placeholder.
  for (const hs of [['e.g. your credit card number'], ['e.g. Bank, Savings, Credit Card', 'Card number'], ['Credit card']]) assert.ok(secret(...hs), hs.join(' | '));
  assert.ok(isSecretField({ type: 'password', hints: ['e.g. Bank, Savings'] }, SECRET_RULES));
  assert.ok(isSecretField({ autocomplete: 'cc-number', hints: ['e.g. Visa, Mastercard'] }, SECRET_RULES));
});
