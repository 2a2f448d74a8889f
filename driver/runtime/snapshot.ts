// `snapshot(pg, opts)`: Playwright's AI-mode aria snapshot (refs that `aria-ref=` resolves),
// post-processed for agents as a pipeline: parse (unquoting YAML-quoted lines) -> main-frame
// refs as eN -> redact secret values -> remember refs -> filter (interactive/compact/depth) ->
// bound -> diff against this page's previous snapshot in this call (compared without refs).
// It also owns how a printed ref maps back to Playwright's (`playwrightRef`); tabs.ts resolves
// `pg.locator("e5")` through it.
import type { Page, Frame } from 'playwright-core';
import { diffArrays } from 'diff';
import { AgentError, toAgentError } from '../errors.js';
import { cutSeenSecrets, learnForeignSecrets, learnSecrets } from './output.js';

import type { SnapshotOptions, SnapshotResult } from '../catalog.gen.js';
export type { SnapshotOptions, SnapshotResult };

/** Per-page memory of the last snapshot: the tree (for diffs), what each ref named (for
 * stale-ref messages) and the main frame's ref prefix (for resolving refs). */
export interface PageSnapshotState {
  /** The previous snapshot's tree: `diff` is what changed since the previous snapshot of that
   * page (as on Aside), whatever options either used — so take before/after snapshots with the
   * same options for a clean diff. */
  previousTree?: string;
  /** Every ref seen on this page in this call and what it named (newest wins), so a ref whose
   * element is gone can still be described. */
  refs: Map<string, string>;
  /** Playwright's ref prefix of the main frame's current document as of the latest snapshot
   * (`''` until the page's first cross-document navigation, then `f2`, `f3`...). */
  mainFramePrefix: string;
  snapshots: number;
  /** A modal dialog was open at the previous snapshot (see diffTrees). */
  previousModal?: boolean;
}
export function newSnapshotState(): PageSnapshotState {
  return { refs: new Map(), mainFramePrefix: '', snapshots: 0 };
}

export const MAX_TREE_CHARS = 60_000;
export const MAX_DIFF_CHARS = 20_000;
export const BASELINE_DIFF = '[baseline: first snapshot of this page in this call — later snapshots show what changed]';
export const NO_CHANGE_DIFF = '[no changes since the previous snapshot]';
/** The same for an interactive snapshot, which compares only what can be clicked or filled. */
const NO_CHANGE_INTERACTIVE_DIFF = '[no changes since the previous snapshot in what can be clicked or filled; text it shows is not compared in interactive mode: take snapshot(pg) without it, or a screenshot]';

const NO_INTERACTIVE = '[no interactive elements: if the page is still drawing, wait for what you need first (await pg.getByRole("button").first().waitFor()), then snapshot again]';

const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem',
]);

/** Containers an interactive snapshot keeps: what is in an open modal is acted on there. */
const DIALOG_ROLES = new Set(['dialog', 'alertdialog']);
/** Playwright's mark on a line whose element, and everything under it, is hidden from assistive
 * technology (`aria-hidden="true"`). */
const ARIA_HIDDEN = / \[aria-hidden\]/;

/** A snapshot key: role, optional JSON-quoted name, then attributes like `[level=1] [ref=e3]`. */
const KEY_RE = /^(\/?[\w-]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/;
const REF_RE = /\[ref=((?:f\d+)?e\d+)\]/;
const REF_TOKEN_RE = / ?\[ref=(?:f\d+)?e\d+\]/g;

/** One element (or text, or property) line of a snapshot, with its key unquoted. */
interface Line {
  indent: number;
  /** The line as printed: `  - button "Save" [ref=e7]` (never a YAML-quoted key). */
  text: string;
  role: string;
  name?: string;
  ref?: string;
  /** Not a `- key` line we know: filters keep it rather than drop what they cannot read. */
  unknown?: boolean;
}

/**
 * Reads one line of Playwright's snapshot YAML. Playwright single-quotes a whole key when it
 * holds a YAML-special sequence (`{`, `}`, a backtick, `: `, ` #`), so an accessible name like
 * `GET /vessels/{callsign}` comes out as `- 'button "GET /vessels/{callsign}" [ref=e6]'`. Every
 * line is given back unquoted, so all lines read `- role "name" [attrs]` and no filter or
 * script regex misses one; names stay JSON strings, so the line is still unambiguous.
 */
export function parseLine(raw: string): Line {
  const lead = /^( *)- /.exec(raw);
  if (!lead) return { indent: (/^ */.exec(raw)![0].length) / 2, text: raw, role: '', ref: REF_RE.exec(raw)?.[1], unknown: true };
  const indent = lead[1].length / 2;
  let body = raw.slice(lead[0].length);
  if (body.startsWith("'")) {
    // YAML single-quoted scalar: '' is a quote, a lone ' ends it.
    let key = '';
    let i = 1;
    for (; i < body.length; i++) {
      if (body[i] !== "'") key += body[i];
      else if (body[i + 1] === "'") key += "'", i++;
      else break;
    }
    if (i >= body.length) return { indent, text: raw, role: '', ref: REF_RE.exec(raw)?.[1], unknown: true };
    body = key + body.slice(i + 1);
  }
  const text = lead[1] + '- ' + body;
  // The key ends at the first `: ` (or a final `:`); an unquoted key never holds `: `, and a
  // quoted one's `: ` sits inside the JSON name, which KEY_RE reads as a whole.
  const m = KEY_RE.exec(body);
  if (!m) return { indent, text, role: '', ref: REF_RE.exec(body)?.[1], unknown: true };
  const attrs = m[3].replace(/:(?: .*)?$/, '');
  return { indent, text, role: m[1], name: m[2], ref: REF_RE.exec(attrs)?.[1] };
}

function parse(tree: string): Line[] {
  return tree.split('\n').filter((l) => l.trim() !== '').map(parseLine);
}

export function describeLine(l: Line): string {
  if (l.name !== undefined) return `${l.role} "${l.name}"`;
  // An unnamed element with text of its own (a grid cell: `- generic [ref=e5]: Coffee Shop`) is
  // told by that text: "(generic)" alone named nothing (trial V5).
  let own = /\]:\s+(.+)$/.exec(l.text)?.[1]?.trim();
  if (own && /^".*"$/.test(own)) {
    try {
      own = String(JSON.parse(own)); // Playwright quotes text that could read as YAML ("4.50")
    } catch {
      // Not JSON: as printed.
    }
  }
  if (l.role && own) return `${l.role} with text ${JSON.stringify(own.length > 60 ? `${own.slice(0, 59)}…` : own)}`;
  return l.role || l.text.trim();
}

/**
 * Main-frame refs read `eN` whatever the page did. Playwright gives each frame a number and
 * prefixes refs with it (`f2e5`) for every frame but the page's first document: it gives the
 * main frame a new number on each cross-document navigation (a reload, a form post), so that a
 * ref taken before the navigation can never resolve to an element of the new document. We keep
 * that guarantee our own way: the snapshot prints main-frame refs without the prefix, and
 * remembers it (`mainFramePrefix`) so `pg.locator("e5")` resolves to the current document's
 * `f2e5` — and a ref the current document never had in a snapshot still fails as stale.
 *
 * The main frame's refs are the lines outside any `iframe` subtree (an iframe element itself
 * belongs to its parent frame); their common prefix is the main frame's.
 */
function mainFramePrefixOf(lines: Line[]): string | undefined {
  let iframeAt = -1; // indent of the iframe whose subtree we are in
  for (const l of lines) {
    if (iframeAt >= 0 && l.indent > iframeAt) continue;
    iframeAt = -1;
    if (l.ref) return /^(f\d+)?e/.exec(l.ref)![1] ?? '';
    if (l.role === 'iframe') iframeAt = l.indent;
  }
  return undefined;
}

function withoutMainPrefix(lines: Line[], prefix: string): Line[] {
  if (!prefix) return lines;
  const re = new RegExp(`\\[ref=${prefix}(e\\d+)\\]`);
  return lines.map((l) =>
    l.ref?.startsWith(prefix + 'e') ? { ...l, ref: l.ref.slice(prefix.length), text: l.text.replace(re, '[ref=$1]') } : l,
  );
}

/** The `aria-ref` Playwright knows for a ref a snapshot printed (`e5` -> `f2e5` after a
 * reload; frame refs `f1e2` are Playwright's own). */
export function playwrightRef(state: PageSnapshotState, ref: string): string {
  return /^e\d+$/.test(ref) ? state.mainFramePrefix + ref : ref;
}

/** Words that make a field secret when one of its hints (name, id, label, aria-label,
 * placeholder) contains them as a whole word — words split at punctuation, spaces, digits and
 * camelCase humps, case-insensitively: `userPassword`, `PASSWORD_CONFIRM`, `api-key`, `otp2`.
 * A word is never matched inside another (`passenger`, `compass`, `pineapple`, `topic`). */
const SECRET_WORDS = [
  'password', 'passwd', 'pwd', 'pass', 'passcode', 'passphrase', 'secret', 'token', 'otp', 'totp', 'hotp',
  'pin', 'cvv', 'cvc', 'csc', 'cvn', 'ssn', 'apikey', 'credential', 'credentials', 'privatekey', 'cardnumber', 'ccnumber', 'ccnum',
  'passwort', 'kennwort', 'contraseña', 'contrasena', 'senha', 'wachtwoord', 'lösenord', 'salasana', 'пароль',
  'hasło', 'haslo', 'heslo', 'passord', 'adgangskode', 'jelszó', 'jelszo', 'parolă', 'şifre', 'sifre', 'κωδικός',
  'jwt', 'mfa', 'bearer', 'sessionid', 'mnemonic', 'pincode',
  'kartennummer', 'einmalpasswort', 'wiederherstellungscode', 'geheimzahl', 'tan', 'puk', 'sicherheitscode', 'bestätigungscode',
  'bestatigungscode', 'beveiligingscode', 'verificatiecode', 'kaartnummer', 'parola', 'pinkod', 'engangskode', 'sikkerhetskode',
  'creditcard', 'sid', 'phpsessid', 'jsessionid', 'aspsessionid', 'csrfmiddlewaretoken', 'xsrf', 'csrf', 'ssn', 'cardno', 'ccv',
  'verifieringskod', 'vahvistuskoodi', 'korttinumero', 'kortnummer', 'lykilorð', 'lykilord', 'пин', 'pinkoodi',
  // Pass 18 (A18): field names and labels the lists lacked.
  'pw', 'newpw', 'oldpw', 'pan', 'authcode', 'passkey', 'cid', 'prüfnummer', 'prufnummer', 'cryptogramme', 'código', 'codigo', 'otc',
  // Pass 20 (A20): recovery and access keys, personal access tokens, German, Dutch and Norwegian codes.
  'wiederherstellungsschlüssel', 'wiederherstellungsschlussel', 'authentifizierungscode', 'zugangscode', 'toegangscode',
  'transaktionsnummer', 'bekreftelseskode', 'gjenopprettingskode', 'herstelcode', 'återställningskod',
  // Pass 21 (A21): network keys, card check numbers, and one-time codes of banks.
  'psk', 'kartenprüfnummer', 'kartenprufnummer', 'blik',
  // Pass 34 (A34): headers and keys a field or a parameter holds whole.
  'auth', 'authorization', 'hmac', 'losenord',
  // Pass 36 (A36): passwords, one-time, security and recovery codes and keys written as one word
  // in the listed languages.
  'συνθηματικό', 'συνθηματικο', 'geheimnummer', 'einmalcode', 'engångskod', 'engangskod', 'kertakäyttökoodi', 'kertakayttokoodi',
  'säkerhetskod', 'sakerhetskod', 'sikkerhedskode', 'turvakoodi', 'gendannelseskode', 'palautuskoodi', 'verkkoavain',
  'netværksnøgle', 'netvaerksnoegle', 'privésleutel', 'privesleutel', 'netwerksleutel', 'sicherheitsschlüssel', 'sicherheitsschlussel',
  'zugangsschlüssel', 'zugangsschlussel', 'netzwerkschlüssel', 'netzwerkschlussel', 'wlanschlüssel', 'wlanschlussel',
  // Pass 38's notes: abbreviations, and the Spanish "clave" of Latin American sign-ins ("Clave
  // Única"), which is not one in "palabra clave" (keyword) or "clave de búsqueda" (the phrases
  // decide "clave de …"). A field named only "cookie" stays open: pass 20 and 34 chose that
  // "Cookie policy" and a cookie banner are not secret; "cookie value", "session cookie" are.
  'pswd', 'privkey', 'clave',
];
/** Secret words that make a word secret when glued to another in one case, with no hump or
 * separator to split them (`adminpassword`, `newpassword`, `apitoken`, `clientsecret`,
 * `openaiapikey`; pass 34, A34): at the end of the word, and the password words at its start
 * too (`passwordconfirm`). Long enough never to sit inside an ordinary word by chance; `pass`
 * and `pin` are not here (`compass`, `shipping`). A phrase's words written together
 * (`accesstoken`, `verificationcode`, `motdepasse`) are matched as a word too. */
const SECRET_GLUED_ENDS = ['password', 'passwd', 'passcode', 'passphrase', 'passwort', 'token', 'secret', 'apikey', 'privatekey', 'sessionid', 'pincode'];
const SECRET_GLUED_STARTS = ['password', 'passwd', 'passcode', 'passphrase', 'passwort'];
/** Runs of words that make a field secret together (neither word alone does). */
const SECRET_PHRASES = [
  'api key', 'private key', 'access key', 'one time code', 'one time password', 'security code', 'verification code',
  'auth code', 'card number', 'cc number', 'cc num', 'mot de passe', '2 fa', 'two factor', 'session id', 'session key',
  'recovery code', 'recovery codes', 'backup code', 'backup codes', 'seed phrase', 'recovery phrase', 'clave de acceso', 'clave secreta', 'código de verificación', 'codigo de verificacion',
  'credit card', 'debit card', 'sms code', 'login code', 'confirmation code', 'authenticator code', 'access code', 'ssh key', 'secret key',
  'auth token', 'número de tarjeta', 'numero de tarjeta', 'código de seguridad', 'codigo de seguridad', 'numéro de carte', 'numero de carte',
  'code de sécurité', 'code de securite', 'code de vérification', 'code de verification', 'código de verificação', 'codigo de verificacao',
  'número do cartão', 'numero do cartao', 'código de segurança', 'codigo de seguranca', 'kod weryfikacyjny', 'numer karty',
  'kod bezpieczeństwa', 'kart numarası', 'kart numarasi', 'doğrulama kodu', 'dogrulama kodu', 'güvenlik kodu', 'guvenlik kodu',
  'код подтверждения', 'номер карты', 'codice di sicurezza', 'codice di verifica', 'numero della carta', 'numero di carta',
  'card no', 'card num', 'social security number', 'security number', 'palavra passe', 'пин код', 'номер кредитной карты',
  '카드 번호', '보안 코드',
  'card verification', 'verification value', 'clé api', 'cle api', 'authorization code', 'authorisation code', 'sign in code', 'email code',
  'digit code', 'code we texted', 'code we sent', 'step verification', 'card code', 'encryption key', 'master key', 'session cookie',
  'cryptogramme visuel', 'mfa code', 'login token',
  // Pass 20 (A20).
  'recovery key', 'emergency code', 'scratch code', 'authentication code', 'magic link code', 'access token', 'personal access token',
  'authorization header', 'authorisation header', 'cookie value', 'network key', 'wi fi key', 'wifi key', 'wi fi password', 'security key',
  'unlock code', 'memorable word', 'memorable information', 'clé de récupération', 'cle de recuperation', "code d accès", 'code d acces',
  'clave de recuperación', 'clave de recuperacion', 'ключ восстановления', 'код доступа', 'код восстановления', 'codice di accesso',
  'chave de recuperação', 'chave de recuperacao', 'código de acesso', 'codigo de acesso', '인증 코드', '복구 키', '복구 코드',
  // Pass 21 (A21).
  'pre shared key', 'wireless key', 'wep key', 'wpa key', 'wifi key', 'code confidentiel', 'code à usage unique', 'code a usage unique',
  'clave de seguridad', 'clave dinámica', 'clave dinamica', 'kod sms', 'код из смс', 'код из sms', 'security answer', 'secret answer',
  'license key', 'licence key', 'product key', 'activation key', 'serial key', 'activation code', 'codice otp', 'codice di accesso',
  // Pass 34 (A34).
  'otp code', 'signing key', 'connection string', 'database url', 'db url', 'cookie header', 'cookie string',
  // Pass 36 (A36): keys, tokens and codes of the listed languages, in more than one word.
  'personal identification number', 'kod jednorazowy', 'одноразовый код', 'eenmalige code', 'api schlüssel', 'api schlussel', 'api schluessel',
  'privater schlüssel', 'privater schlussel', 'geheimer schlüssel', 'geheimer schlussel', 'wlan schlüssel', 'wlan schlussel',
  'clave api', 'clave privada', 'clave de red', 'clé privée', 'cle privee', 'clé de sécurité', 'clé réseau', 'cle reseau', 'clé secrète', 'cle secrete',
  'chave privada', 'chave de api', 'chave api', 'chave de segurança', 'chave de seguranca', 'api sleutel', 'geheime sleutel',
  'klucz prywatny', 'klucz api', 'klucz bezpieczeństwa', 'klucz bezpieczenstwa', 'klucz sieciowy', 'özel anahtar', 'ozel anahtar',
  'api anahtarı', 'api anahtari', 'ağ anahtarı', 'ag anahtari', 'güvenlik anahtarı', 'guvenlik anahtari', 'privat nyckel', 'privat nøkkel', 'privat nokkel',
  'privat nøgle', 'privat nogle', 'yksityinen avain', 'закрытый ключ', 'приватный ключ', 'api ключ', 'ключ api', 'ключ безопасности', 'ключ сети',
  'секретный ключ', 'ιδιωτικό κλειδί', 'ιδιωτικο κλειδι', 'κλειδί api', 'κλειδι api', 'κλειδί ασφαλείας', 'κλειδι ασφαλειας',
  'jeton d accès', 'jeton d acces', 'erişim belirteci', 'erisim belirteci', 'токен доступа', 'code de récupération', 'kod odzyskiwania',
  'kurtarma kodu', 'kod zabezpieczający', 'kod zabezpieczajacy', 'код безопасности', 'αριθμός κάρτας', 'αριθμος καρτας', 'número de la tarjeta',
  'numero de la tarjeta', 'kortin numero', 'sitzungs id', 'identifiant de session', 'кодовое слово', '개인 키', 'api 키', '보안 키', '네트워크 키', '액세스 토큰',
];
/** Secret words of scripts written without spaces between words (Chinese, Japanese, Korean):
 * matched anywhere in a hint. */
const SECRET_SUBSTRINGS = [
  'パスワード', '暗証番号', '認証コード', 'カード番号', 'セキュリティコード', '確認コード', '密码', '密碼', '口令', '验证码', '驗證碼', '卡号', '卡號', '安全码',
  '비밀번호', '인증번호', '카드번호', '보안코드', '인증코드', '복구키', '복구코드',
  // Pass 20 (A20): recovery keys and codes.
  '恢复密钥', '恢复码', '恢復金鑰', '復原碼', '回復キー', '回復コード', 'リカバリーキー', 'リカバリーコード', '复原码',
  // Words German, Dutch and the Nordic languages put inside longer words (Kreditkartennummer).
  'kartennummer', 'passwort', 'kennwort', 'geheimzahl', 'sicherheitscode', 'bestätigungscode', 'verifizierungscode', 'wiederherstellungscode',
  'wachtwoord', 'lösenord', 'verifieringskod', 'salasana', 'vahvistuskoodi', 'korttinumero', 'adgangskode', 'passord',
  'wiederherstellungsschlüssel', 'authentifizierungscode', 'zugangscode', 'toegangscode', 'bekreftelseskode', 'transaktionsnummer',
  // Pass 36 (A36): Korean, Japanese and Chinese words for passwords, keys, tokens and codes.
  '패스워드', '비번', '암호', '보안카드', 'pinコード', 'ワンタイムコード', '秘密キー', '秘密鍵', 'apiキー', 'ネットワークキー', 'セキュリティキー', 'アクセストークン',
  '復旧コード', '合言葉', '私钥', '密钥', '私鑰', '金鑰', '访问令牌', '訪問令牌', '备用码', '備用碼',
];
/** `autocomplete` tokens of secret fields: passwords, one-time codes, and every `cc-*` (card). */
const SECRET_AUTOCOMPLETE = ['current-password', 'new-password', 'one-time-code'];

/** A secret word that is not one before the word given: Turkish `parola` is a password, Italian
 * `parola chiave` a keyword. */
const SECRET_WORD_UNLESS_NEXT: Record<string, string> = { parola: 'chiave', 'código': 'postal', codigo: 'postal', pan: 'size', clave: 'de' };
/** A secret word that is not one after the words given: Spanish `clave` is a password alone
 * and a key point or keyword after these (`palabra clave`, `punto clave`). */
const SECRET_WORD_UNLESS_PREVIOUS: Record<string, string[]> = { clave: ['palabra', 'palabras', 'punto', 'puntos', 'idea', 'ideas', 'dato', 'datos', 'pregunta', 'preguntas', 'factor', 'factores', 'pieza', 'momento'] };

/** Words that, right after a secret word, make the pair name a kind of secret rather than hold
 * one: a select `password_type` (Swagger UI's OAuth2 "basic" or "request-body") or `token_type`
 * offers the page's own choices. Only for a choice (a select): a text field under such a name
 * still holds what is typed into it. */
const SECRET_DESCRIBING_NEXT = ['type', 'kind', 'mode', 'method', 'format', 'flow', 'scheme', 'grant', 'policy', 'strength', 'length', 'location', 'placement', 'style', 'algorithm'];

/** The phrases of several words written as one (`apikey`, `onetimecode`), made once here
 * rather than for every word of every field: a snapshot of a 1,500-row page classified
 * each line's words against every phrase, ~300 ms of Node's time a snapshot (issue 23). */
const SECRET_GLUED_PHRASES = SECRET_PHRASES.filter((p) => p.includes(' ')).map((p) => p.replace(/ /g, ''));

/** Each phrase's first word: a phrase is looked for only in hints that hold that word. */
const SECRET_PHRASE_FIRST_WORDS = SECRET_PHRASES.map((p) => p.split(' ')[0]);

export const SECRET_RULES = { words: SECRET_WORDS, phrases: SECRET_PHRASES, phraseFirstWords: SECRET_PHRASE_FIRST_WORDS, gluedPhrases: SECRET_GLUED_PHRASES, substrings: SECRET_SUBSTRINGS, autocomplete: SECRET_AUTOCOMPLETE, unlessNext: SECRET_WORD_UNLESS_NEXT, unlessPrevious: SECRET_WORD_UNLESS_PREVIOUS, describingNext: SECRET_DESCRIBING_NEXT, gluedEnds: SECRET_GLUED_ENDS, gluedStarts: SECRET_GLUED_STARTS };

/** Whether a form field holds a secret, from its type, autocomplete tokens and hints. Runs in
 * Node (tests) and, as source text, in the page (secretValues): self-contained on purpose. */
export function isSecretField(field: { type?: string; autocomplete?: string; hints: string[]; choice?: boolean }, rules: typeof SECRET_RULES): boolean {
  if ((field.type ?? '').toLowerCase() === 'password') return true;
  const tokens = (field.autocomplete ?? '').toLowerCase().split(/\s+/);
  if (tokens.some((t) => rules.autocomplete.includes(t) || t.startsWith('cc-'))) return true;
  // NFKC first: a fullwidth ＰａｓｓＷｏｒｄ shows as the word it is; and characters that show
  // nothing (a soft hyphen, a zero-width or word joiner) cannot split a word a person reads whole.
  // A hint that lists example values ("e.g. Bank, Savings, Credit Card, Cash", an account name's
  // placeholder) says what the field may hold, not that it holds a secret (trials V5, V6: every
  // account name typed was cut). A page chooses every hint anyway, so it gains nothing here.
  const listsExamples = (h: string) => {
    const rest = /^\s*(?:e\.?\s?g\.?|ex\.|for (?:example|instance)|such as|z\.\s?b\.|p\.\s?(?:ex|ej)\.|ej\.|bijv\.|np\.|t\.\s?ex\.|f\.\s?eks\.|esim\.|ad es\.|por (?:ejemplo|exemplo)|par exemple|zum beispiel|например|例如|例|예)(?=[\s:：,，])[\s:：,，]*(.*)$/iu.exec(h)?.[1];
    return rest !== undefined && rest.split(/\s*(?:[,;，、/]|\bor\b|\boder\b|\bou\b|\bo\b)\s*/iu).filter((item) => item.trim()).length >= 2;
  };
  const shown = field.hints.map((h) => h.normalize('NFKC').replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, '')).filter((h) => !listsExamples(h));
  // Also without marks: a combining line or accent put on a letter (P̲assword) hides no word.
  const hints = [...shown, ...shown.map((h) => h.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC'))];
  if (hints.some((h) => rules.substrings.some((sub) => h.toLowerCase().includes(sub)))) return true;
  const words = hints
    .join(' ')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2') // userPassword
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2') // APIKey
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, '$1$3 $2$4') // otp2, 2fa
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  // A choice named for a kind of secret (`password_type`) holds none (describingNext).
  const describedAt = (i: number, all: string[]) => !!field.choice && rules.describingNext.includes(all[i + 1] ?? '');
  const glued = (w: string) =>
    rules.gluedEnds.some((e) => w.length > e.length && w.endsWith(e)) ||
    rules.gluedStarts.some((e) => w.length > e.length && w.startsWith(e)) ||
    rules.gluedPhrases.includes(w);
  const secretWord = (w: string, i: number, all: string[]) =>
    (rules.words.includes(w) || glued(w)) &&
    !(Object.hasOwn(rules.unlessNext, w) && rules.unlessNext[w] === all[i + 1]) &&
    !(Object.hasOwn(rules.unlessPrevious, w) && rules.unlessPrevious[w].includes(all[i - 1] ?? '')) &&
    !describedAt(i, all);
  // Plurals name the same secrets ("Passwords", "API keys", "One-time codes").
  const singular = words.map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
  if (words.some(secretWord) || singular.some(secretWord)) return true;
  const joined = ` ${words.join(' ')} `;
  const joinedSingular = ` ${singular.join(' ')} `;
  const phraseIn = (text: string, p: string) => {
    for (let at = text.indexOf(` ${p} `); at >= 0; at = text.indexOf(` ${p} `, at + 1)) {
      const next = text.slice(at + p.length + 2).split(' ')[0];
      if (!(field.choice && rules.describingNext.includes(next))) return true;
    }
    return false;
  };
  const present = new Set([...words, ...singular]);
  return rules.phrases.some((p, k) => present.has(rules.phraseFirstWords[k]) && (phraseIn(joined, p) || phraseIn(joinedSingular, p)));
}

/** The page side of secretValues: every form field that isSecretField calls secret (inputs,
 * textareas, selects, rich-text fields), in the document and its open shadow roots: an input's
 * current and default value, a select's chosen options, a rich-text field's text. A label names
 * a field by what it shows, not by its raw text: hidden parts are skipped, and an image's alt,
 * an aria-label, a button's value and CSS ::before/::after content count, as in the accessible
 * name the snapshot prints. Self-contained: it is sent to the page as source text. */
function collectSecretValues(isSecret: typeof isSecretField, rules: Parameters<typeof isSecretField>[1]): string[] {
  const NOT_TEXT = ['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file'];
  const out: string[] = [];
  const pseudo = (el: Element, which: '::before' | '::after') => {
    const c = getComputedStyle(el, which).content;
    return c && c !== 'none' && c !== 'normal' ? c.replace(/^["']|["']$/g, '') : '';
  };
  const shownName = (node: Node, depth = 0): string => {
    if (depth > 20) return '';
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const el = node as Element;
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('hidden')) return '';
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') return '';
    const own = el.getAttribute('aria-label');
    if (own) return own;
    if (el instanceof HTMLImageElement) return el.alt;
    if (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type)) return el.value;
    if (el.tagName.toLowerCase() === 'svg') return el.querySelector('title')?.textContent ?? '';
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || el instanceof HTMLOutputElement) return '';
    return pseudo(el, '::before') + Array.from(el.childNodes).map((c) => shownName(c, depth + 1)).join('') + pseudo(el, '::after');
  };
  // A label can show a word its text does not spell: a part made invisible in one of many
  // ways (font-size 0, opacity, a transparent colour, clipping), or letters laid out in another
  // order (right-to-left, a reversed flex row). Rather than predicting each way, the label is
  // also read with each of its parts left out in turn, backwards, and with its parts in reverse
  // order: a secret word in any of these readings marks the field.
  const readings = (l: Element): string[] => {
    const text = l.textContent ?? '';
    const out = [shownName(l), text, [...text].reverse().join('')];
    const parts = Array.from(l.querySelectorAll('*')).slice(0, 40);
    for (const part of parts) {
      const t = part.textContent ?? '';
      if (t && t !== text) out.push(text.replace(t, ''));
    }
    const children = Array.from(l.childNodes).map((c) => c.textContent ?? '');
    if (children.length > 1) out.push([...children].reverse().join(''));
    return out;
  };
  const named = (el: Element) => {
    const home = el.getRootNode() as Document | ShadowRoot;
    const labelled = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => home.getElementById?.(id)).filter((x): x is HTMLElement => !!x);
    // A rich-text box (a div) has no `labels`, but a label around it names it to a person.
    const around = el.closest('label');
    const labels = Array.from((el as HTMLInputElement).labels ?? []);
    if (around && !labels.includes(around)) labels.push(around);
    return [...labels, ...labelled].flatMap(readings);
  };
  // A field the page masks (CSS -webkit-text-security: discs instead of letters) hides its
  // value from a person as a password field does: it is a secret whatever its label says.
  const masked = (el: Element) => {
    const v = getComputedStyle(el).getPropertyValue('-webkit-text-security');
    return !!v && v !== 'none';
  };
  const walk = (root: Document | DocumentFragment) => {
    // An <output> is a form field too (a computed code, a generated token), with labels and a value.
    for (const el of Array.from(root.querySelectorAll('input, textarea, select, output, meter, progress, button[value], [contenteditable], [role="textbox"], [role="combobox"], [role="searchbox"], [role="spinbutton"]'))) {
      const i = el as HTMLInputElement;
      if (el instanceof HTMLMeterElement || el instanceof HTMLProgressElement) {
        // A labelled value, like an <output>'s: its number and its text.
        const hints = [el.id, el.getAttribute('aria-label') ?? '', el.getAttribute('title') ?? '', ...named(el)];
        if (isSecret({ hints }, rules)) for (const v of [String(el.value), el.getAttribute('value') ?? '', (el.textContent ?? '').trim()]) if (v.length >= 3) out.push(v);
        continue;
      }
      const field = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || el instanceof HTMLOutputElement;
      // A radio, checkbox or button sends its value with the form (a GET form puts it in the
      // URL): named by a secret word ("otp", "csrf_token", "PIN"), a code-like value of it
      // (six or more characters with a digit or a sign; not "on" or "true") is a secret too.
      if ((el instanceof HTMLInputElement && NOT_TEXT.includes(i.type) && i.type !== 'file') || el instanceof HTMLButtonElement) {
        const value = (el as HTMLInputElement | HTMLButtonElement).value;
        const hints = [(el as HTMLInputElement).name ?? '', el.id, el.getAttribute('aria-label') ?? '', el.getAttribute('title') ?? '', ...named(el)];
        if (/^\S{6,}$/.test(value) && /[^\p{L}]/u.test(value) && isSecret({ type: '', autocomplete: el.getAttribute('autocomplete') ?? '', hints }, rules)) out.push(value);
        continue;
      }
      if (el instanceof HTMLInputElement && NOT_TEXT.includes(i.type)) continue;
      if (!field && el.getAttribute('contenteditable') === 'false') continue;
      const hints = [i.name ?? '', el.id, el.getAttribute('aria-label') ?? '', el.getAttribute('placeholder') ?? '', el.getAttribute('title') ?? '', ...named(el)];
      const type = el instanceof HTMLInputElement ? i.type : '';
      if (!masked(el) && !isSecret({ type, autocomplete: el.getAttribute('autocomplete') ?? '', hints, choice: el instanceof HTMLSelectElement }, rules)) continue;
      if (el instanceof HTMLSelectElement) {
        // Every option: the choices of a secret select give its value away as much as the choice.
        for (const o of Array.from(el.options)) for (const v of [o.text, o.value, o.label]) if (v) out.push(v);
      } else if (field) {
        for (const v of [i.value, i.defaultValue]) if (v) out.push(v);
      } else {
        // A rich-text box's text is its value, but the snapshot prints each of its blocks (a
        // paragraph, a list item) on a line of its own: each line and each text node is cut too.
        // Its text in open shadow roots (the box's own, or a custom element's inside it) shows
        // and prints as the box's, though textContent and innerText leave it out (pass 34, A34).
        const texts: string[] = [];
        const visit = (n: Node, depth: number) => {
          if (depth > 50) return;
          if (n.nodeType === Node.TEXT_NODE) texts.push(n.textContent ?? '');
          const shadow = n.nodeType === Node.ELEMENT_NODE ? (n as Element).shadowRoot : null;
          if (shadow) for (const c of Array.from(shadow.childNodes)) visit(c, depth + 1);
          for (const c of Array.from(n.childNodes)) visit(c, depth + 1);
        };
        visit(el, 0);
        const text = (el as HTMLElement).innerText ?? '';
        const all = texts.join('');
        if (all.trim() || text.trim()) {
          out.push((el.textContent ?? '').trim(), all.trim(), text.trim(), ...text.split('\n').map((l) => l.trim()), ...texts.map((t) => t.trim()));
        }
      }
    }
    // A table, grid, list or tree named by a secret word ("Backup codes", "Recovery phrase")
    // holds its values as cells and items, as the snapshot reads it (redact): learned whole by
    // any read, so a script that prints the page's text without a snapshot first gets them cut
    // too (pass 35, A35). Named by aria-label, aria-labelledby or a table's caption.
    for (const box of Array.from(root.querySelectorAll('table, ul, ol, [role="grid"], [role="treegrid"], [role="table"], [role="list"], [role="tree"], [role="listbox"]'))) {
      const caption = box instanceof HTMLTableElement && box.caption ? [box.caption.textContent ?? ''] : [];
      const hints = [box.getAttribute('aria-label') ?? '', ...caption, ...named(box)];
      if (!hints.some(Boolean) || !isSecret({ hints }, rules)) continue;
      for (const c of Array.from(box.querySelectorAll('td, li, [role="cell"], [role="gridcell"], [role="listitem"], [role="treeitem"], [role="option"]'))) {
        const t = ((c as HTMLElement).innerText ?? c.textContent ?? '').trim();
        if (t.length >= 3) out.push(t);
      }
    }
    for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot) walk(el.shadowRoot);
    // Markup the page keeps unrendered still prints in content() and innerHTML(): a <template>'s
    // fields, and a <noscript>'s, which is text while scripts run.
    for (const t of Array.from(root.querySelectorAll('template'))) walk((t as HTMLTemplateElement).content);
    for (const n of Array.from(root.querySelectorAll('noscript'))) if (/<(input|textarea|select)\b/i.test(n.textContent ?? '')) walk(new DOMParser().parseFromString(n.textContent ?? '', 'text/html'));
  };
  walk(document);
  return out.filter(Boolean);
}

/** The expression secretValues evaluates in every frame: the frame's origin and its secret
 * values. A string, not a function, so the classifier travels with it; `__name` is defined
 * because a TypeScript runner (tsx) may wrap named functions in calls to it. `self.origin` is
 * the origin an about:blank or srcdoc frame inherits. */
const SECRET_VALUES_EXPRESSION = `(() => { const __name = (f) => f; return { origin: String(self.origin), values: (${collectSecretValues.toString()})(${isSecretField.toString()}, ${JSON.stringify(SECRET_RULES)}) }; })()`;

/** Whether one element is a secret field, as collectSecretValues decides for a text field (a
 * password input, secret `autocomplete` tokens, a CSS mask, a secret word in its name, id,
 * label, aria-label, placeholder or title). Built with Function so that it travels to the page
 * with its classifier. */
const ELEMENT_IS_SECRET = new Function(
  'el',
  `const __name = (f) => f; const isSecret = ${isSecretField.toString()}; const rules = ${JSON.stringify(SECRET_RULES)};
  if (!el || el.nodeType !== 1) return false;
  const mask = getComputedStyle(el).getPropertyValue('-webkit-text-security');
  if (mask && mask !== 'none') return true;
  const text = (n) => (n && (n.innerText || n.textContent)) || '';
  const labels = Array.from(el.labels || []).map(text);
  const around = el.closest('label');
  if (around) labels.push(text(around));
  const home = el.getRootNode();
  const labelled = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean).map((id) => text(home.getElementById ? home.getElementById(id) : null));
  const hints = [el.getAttribute('name') || '', el.id || '', el.getAttribute('aria-label') || '', el.getAttribute('placeholder') || '', el.getAttribute('title') || '', ...labels, ...labelled];
  return isSecret({ type: el.getAttribute('type') || '', autocomplete: el.getAttribute('autocomplete') || '', hints }, rules);`,
) as (el: Element) => boolean;

/** Whether the element a locator reaches is a secret field; false when it cannot tell within
 * `ms` (no such element yet, several). */
export async function reachesSecretField(locator: import('playwright-core').Locator, ms: number): Promise<boolean> {
  return locator.evaluate(ELEMENT_IS_SECRET, undefined, { timeout: ms }).then((v) => v === true, () => false);
}

/** The secret values a read's text is cut with: its own origin's (`own`, for the main frame's
 * lines) and every frame's (`all`, for lines inside iframes). */
export interface ReadSecrets {
  own: string[];
  all: string[];
}

/** Values of secret fields (passwords, one-time codes, card numbers, tokens, API keys) in every
 * frame, including open shadow roots, longest first. Every frame's values are learned, so they
 * are cut from every line the call prints. What a read's own value is cut with is narrower:
 * the values of the frames of `scope`'s origin (the main frame's by default), since a frame of
 * another origin (an ad) that puts ordinary words in a password field ("Payment failed") would
 * otherwise cut them from the page's own text, the text a script reads to decide whether its
 * work failed (docs/SECURITY.md, "forge success"). `scope` 'all' takes every frame's. */
export async function secretValues(page: Page, scope?: Frame | 'all', opts: { otherTabs?: boolean } = {}): Promise<ReadSecrets> {
  const frames = page.frames();
  const collect = (f: Frame) =>
    f.evaluate(SECRET_VALUES_EXPRESSION).then(
      (v) => v as { origin: string; values: string[] },
      () => ({ origin: '', values: [] as string[] }),
    );
  // The call's other tabs too: a popup the page opened, or another tab of the same site, can
  // hand a password it holds to this tab (an opener reading `w.document`, a BroadcastChannel),
  // and what this read prints would be the first the call sees of it (pass 21, A21). Their
  // frames count like frames of this page: their origin decides whether a value cuts this
  // page's own text. Bounded: a busy tab must not hold this read.
  const others = opts.otherTabs === false ? [] : otherTabs(page).flatMap((p) => p.frames());
  const bounded = (f: Frame) =>
    Promise.race([collect(f), new Promise<{ origin: string; values: string[] }>((r) => setTimeout(() => r({ origin: '', values: [] }), OTHER_TAB_MS).unref?.())]);
  const found = await Promise.all([...frames.map(collect), ...others.map(bounded)]);
  const longestFirst = (lists: string[][]) => [...new Set(lists.flat())].sort((a, b) => b.length - a.length);
  const all = longestFirst(found.map((f) => f.values));
  // A value only a frame of another origin holds is learned as that (output.ts
  // foreignSecrets): cut, but marked, since such a frame can hold the page's own words. When
  // the page's own origin is unknown, every value is its own: the plain cut.
  const home = found[frames.indexOf(page.mainFrame())]?.origin;
  const ownValues = home ? new Set(found.filter((f) => f.origin === home).flatMap((f) => f.values)) : new Set(all);
  learnSecrets(all.filter((v) => ownValues.has(v)));
  learnForeignSecrets(all.filter((v) => !ownValues.has(v)));
  if (scope === 'all') return { own: all, all };
  const at = frames.indexOf(scope ?? page.mainFrame());
  // A frame that is gone (or not found) cannot say its origin: every frame's values, the safe side.
  if (at < 0 || !found[at].origin) return { own: all, all };
  const origin = found[at].origin;
  return { own: longestFirst(found.filter((f) => f.origin === origin).map((f) => f.values)), all };
}

/** How long another tab's frame may take to give its secret values to a read of this one: a
 * page that keeps its popup busy in chunks (900 ms of work, 10 ms free) answers within it (pass
 * 22, A22); one busy longer at a stretch is written as open in docs/SECURITY.md. */
const OTHER_TAB_MS = 2_000;

/** The other open tabs of `page`'s context (popups, the call's other tabs). */
function otherTabs(page: Page): Page[] {
  try {
    return page.context().pages().filter((p) => p !== page && !p.isClosed());
  } catch {
    return [];
  }
}

/** A snapshot or ariaSnapshot text with secret values cut. The main frame's lines are cut with
 * `secrets.own` and what the tree names secret outside iframes; lines inside an iframe with
 * every frame's (secretValues). */
export function redact(tree: string, readSecrets: ReadSecrets): string {
  const secrets = readSecrets.all;
  const lines = tree.split('\n');
  // Lines under an `- iframe` line belong to another document; which ones is kept per line.
  let iframeUnder = -1;
  const inFrame: boolean[] = [];
  const learnedInFrames: string[] = [];
  // A field the snapshot itself names with a secret word (`- textbox "Password" [ref=e7]: …`)
  // is secret whatever its label's markup did to the page-side classifier (hidden parts, an
  // image's alt, CSS content): its value is cut, and learned, so it is cut elsewhere too. A
  // secret select's options are all cut (the chosen one is its value).
  const learned = [...secrets];
  let optionsUnder = -1;
  // Lines under a secret rich-text box (its paragraphs, list items, text) are its value.
  let contentUnder = -1;
  let inContainer = false;
  /** The container is a list or tree: each item is a value of its own (a seed phrase's words,
   * a 5-digit code), learned whole, not only its code-like words (red-team pass 24, A24). */
  let inList = false;
  const out = lines.map((line, i) => {
    const indent = line.length - line.trimStart().length;
    if (iframeUnder >= 0 && indent <= iframeUnder) iframeUnder = -1;
    inFrame[i] = iframeUnder >= 0;
    if (iframeUnder < 0 && /^\s*- iframe\b/.test(line)) iframeUnder = indent;
    // What is named secret inside an iframe is cut there and learned for printing, not cut from
    // the main frame's text (secretValues says why).
    const learn = (v: string) => {
      if (inFrame[i]) {
        if (!learnedInFrames.includes(v)) learnedInFrames.push(v);
      } else if (!learned.includes(v)) learned.push(v);
    };
    if (optionsUnder >= 0 && indent > optionsUnder && /^\s*- option\b/.test(line)) {
      const option = /^\s*- option "((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
      const text = option === undefined ? '' : yamlScalar(`"${option}"`);
      if (text.length >= 4) learn(text);
      return line.replace(/^(\s*- option) (?:"(?:[^"\\]|\\.)*"|[^[:]+?)(?=\s*(?:\[|:|$))/, '$1 "[redacted]"');
    }
    if (indent <= optionsUnder) optionsUnder = -1;
    // A field's placeholder is the page's hint, not what was typed: kept, and not learned (it was,
    // and its words then cut the other fields' hints: "Your strong password" made the user
    // name's "Your username" read "[redacted] username"; trial V28, Verdaccio). A value typed
    // into the field is cut from it all the same, by the last pass below.
    if (contentUnder >= 0 && indent > contentUnder && /^\s*- \/placeholder:/.test(line)) return line;
    if (contentUnder >= 0 && indent > contentUnder) {
      const child = /^(\s*- (?:[\w-]+))(?: "(?:[^"\\]|\\.)*")?((?: \[[^\]]*\])*)(:.*)?$/.exec(line);
      // What it cuts here is learned too, so a copy elsewhere in the call's output is cut.
      const said = /^\s*- [\w-]+ "((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
      const text = child?.[3] && child[3] !== ':' ? yamlScalar(child[3].slice(1).trim()) : child ? '' : line.trim();
      // Under a container only code-like values (a word of 6 or more characters with a digit or
      // a sign in it): its headers and buttons ("Created", "Revoke") are not secrets to cut from
      // every later line.
      const codeLike = (v: string) => /^\S{6,}$/.test(v) && /[^\p{L}]/u.test(v);
      // A table's or grid's own cells are its values, learned whole like a list's items (a
      // 5-digit backup code, a seed word "1. abandon"; pass 35, A35); its headers, caption and
      // buttons ("Created", "Revoke") are not.
      const cell = /^\s*- (?:cell|gridcell)\b/.test(line);
      for (const v of [said === undefined ? '' : yamlScalar(`"${said}"`), text]) {
        // A container's cell may hold a code among words ("Code: LiJ0-11Kk-2lL"): each code-like
        // word of it is learned.
        for (const w of inContainer ? v.split(/\s+/).filter(codeLike) : v ? [v] : []) learn(w);
        if ((inList || (inContainer && cell)) && v.trim().length >= 3) learn(v.trim());
      }
      if (!child) return line.replace(/^(\s*).*$/, '$1[redacted]');
      const value = child[3] === undefined ? '' : child[3] === ':' ? ':' : ': [redacted]';
      return `${child[1]}${/ "/.test(line.slice(child[1].length, child[1].length + 2)) ? ' "[redacted]"' : ''}${child[2]}${value}`;
    }
    if (indent <= contentUnder) contentUnder = -1;
    // A grid, table, list or tree the page names with a secret word ("Recovery codes") holds
    // its values as cells and items: they are cut as a secret box's lines are.
    const container = /^\s*- (grid|treegrid|table|list|tree) "((?:[^"\\]|\\.)*)"/.exec(line);
    if (container && isSecretField({ hints: [yamlScalar(`"${container[2]}"`)] }, SECRET_RULES)) {
      contentUnder = indent;
      inContainer = true;
      inList = container[1] === 'list' || container[1] === 'tree';
      return line;
    }
    // `status` is an <output>'s role: a form field whose value the page computed (a code).
    // `meter` and `progressbar`: a <meter> or <progress> is a labelled form value too (pass 37).
    const field = /^(\s*- (textbox|searchbox|combobox|listbox|slider|spinbutton|status|meter|progressbar)\b(?: "((?:[^"\\]|\\.)*)")?.*?)(?:: (.*))?$/.exec(line);
    if (!field) return line;
    const name = field[3] === undefined ? '' : yamlScalar(`"${field[3]}"`);
    if (name && isSecretField({ hints: [name] }, SECRET_RULES)) {
      if (field[2] === 'combobox' || field[2] === 'listbox') optionsUnder = indent;
      else {
        contentUnder = indent;
        inContainer = false;
        inList = false;
      }
      if (field[4] === undefined) return line;
      const value = yamlScalar(field[4].trim());
      if (value) learn(value);
      return `${field[1]}: [redacted]`;
    }
    const known = inFrame[i] ? secrets : readSecrets.own;
    if (field[4] !== undefined && (known.includes(field[4].trim()) || known.includes(yamlScalar(field[4].trim())))) return `${field[1]}: [redacted]`;
    return line;
  });
  if (learned.length > secrets.length) learnSecrets(learned.slice(secrets.length));
  // Values the tree names secret inside an iframe (a "Recovery codes" list, a select named
  // password): a frame can hold the page's own words there, so they are cut with the mark
  // flows will not compare (output.ts foreignSecrets; pass 28, A28). An iframe's origin is not
  // in the tree: a same-origin one is marked too, the safe side.
  if (learnedInFrames.length) learnForeignSecrets(learnedInFrames);
  const longestFirst = (values: string[]) => [...new Set(values)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  const own = longestFirst([...readSecrets.own, ...learned.slice(secrets.length)]);
  const every = longestFirst([...learned, ...learnedInFrames]);
  if (!every.length) return out.join('\n');
  return out
    .map((line, i) => {
      let l = line;
      for (const s of inFrame[i] ? every : own) l = l.split(s).join('[redacted]');
      return l;
    })
    .join('\n');
}

/** A YAML scalar as its text: `"123"` (JSON-style escapes) and `'it''s'` are unquoted. */
function yamlScalar(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

/** `pg.content()` without secret values: a prefilled field's `value` attribute (any length)
 * and, like the snapshot, any other occurrence of a secret of 4 characters or more, as the
 * serializer escapes it in attributes and in text. */
export function redactHtml(html: string, secrets: string[]): string {
  let out = html;
  for (const s of secrets) {
    const amp = s.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;');
    const inAttr = amp.replace(/"/g, '&quot;');
    const inText = amp.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    out = out.split(`value="${inAttr}"`).join('value="[redacted]"');
    if (s.length >= 4) for (const form of new Set([s, inAttr, inText])) out = out.split(form).join('[redacted]');
  }
  return out;
}

/** What the script's `pg.content()` returns: Playwright's, with secret values cut. */
export async function redactedContent(page: Page): Promise<string> {
  const [html, secrets] = await Promise.all([page.content(), secretValues(page)]);
  return redactHtml(html, secrets.own);
}

/** A frame's HTML with the secret values of its origin's frames cut. */
export async function redactedFrameContent(frame: Frame): Promise<string> {
  const [html, secrets] = await Promise.all([frame.content(), secretValues(frame.page(), frame)]);
  return redactHtml(html, secrets.own);
}

/** Interactive elements (a role you act on, with a ref; a disabled one without), each with the
 * child lines that say what acting on it means: a link's `/url`, a select's options; under the
 * line of each open dialog they are in. A line the parser did not recognise but that carries a
 * ref is kept as it is: a filter never drops what it cannot read. */
function filterInteractive(lines: Line[]): Line[] {
  const out: Line[] = [];
  // Open dialogs keep their line, and what can be acted on inside one is indented under it: an
  // agent sees that a modal is open and what is in it (getByRole("dialog").getByRole(...)), and
  // the failure evidence keeps a dialog whole past its cut (evidence.ts; trial V24).
  // So does a part of the page hidden from assistive technology (Playwright's `[aria-hidden]`
  // line; an app's open modal hides the page behind it so): its controls have no name there and
  // getByRole does not find them, which the line above them says (trials V30, V31: the header's
  // `button [ref=e52]: Login` behind Verdaccio's sign-in dialog read as a button to click).
  const groups: Array<{ indent: number; hidden: boolean }> = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    while (groups.length && l.indent <= groups[groups.length - 1].indent) groups.pop();
    const depth = groups.length;
    const pad = '  '.repeat(depth);
    const inHidden = groups.some((g) => g.hidden);
    if (l.unknown && l.ref) {
      out.push({ ...l, indent: depth, text: pad + l.text.trimStart() });
      continue;
    }
    const hides = ARIA_HIDDEN.test(l.text) && !inHidden && !INTERACTIVE_ROLES.has(l.role);
    if ((DIALOG_ROLES.has(l.role) || hides) && l.ref) {
      out.push({ ...l, indent: depth, text: pad + l.text.trimStart().replace(/:?$/, ':') });
      groups.push({ indent: l.indent, hidden: hides });
      continue;
    }
    // A disabled control the browser gives no pointer events (`pointer-events: none`, as MUI
    // draws a disabled button) has no ref, yet says what the form waits for: kept, without a ref
    // (trials V28, V29: a sign-in dialog's "Login" button was missing until the fields were
    // filled).
    if (!INTERACTIVE_ROLES.has(l.role) || (!l.ref && !/ \[disabled\]/.test(l.text))) continue;
    // children other than /url and options are dropped, so a trailing "container" colon would mislead
    let text = l.text.trimStart().replace(/:$/, '');
    // A link or button named by its content (an icon's alt text, a text child) has no name of
    // its own on its line: its children say it, and they are dropped here. Say it on the line,
    // as its accessible name (`- button "Save" [ref=e4]` for `<button><img alt="Save">`).
    // A named `generic` child is not part of it: its name is a title on a wrapper, which
    // Playwright leaves out of the button's name (`<button><div title="Today"
    // style="display:flex"><svg>`: getByRole("button", { name: "Today" }) finds nothing, trial
    // V18 on Actual Budget). Those children keep their lines under it, as Playwright prints them.
    // Not under an [aria-hidden] line: a name getByRole cannot find there is no name to give.
    let name = l.name;
    const titled: Line[] = [];
    if (name === undefined && !inHidden && !ARIA_HIDDEN.test(l.text) && /:$/.test(l.text.trimEnd())) {
      const parts: string[] = [];
      for (let j = i + 1; j < lines.length && lines[j].indent > l.indent; j++) {
        const d = lines[j];
        if (d.role === 'text') parts.push(d.text.trimStart().replace(/^- text: ?/, '').replace(/^"(.*)"$/, '$1'));
        else if (d.role === 'generic' && d.name) titled.push(d);
        else if (d.role !== '/url' && d.name) parts.push(d.name);
      }
      const derived = parts.join(' ').replace(/\s+/g, ' ').trim();
      if (derived) {
        name = derived;
        text = text.replace(/^- ([\w-]+)/, (m) => `${m} ${JSON.stringify(derived)}`);
        titled.length = 0;
      }
    }
    out.push({ ...l, name, indent: depth, text: pad + (titled.length ? `${text}:` : text) });
    for (const t of titled) out.push({ ...t, indent: depth + 1, text: pad + '  ' + t.text.trimStart().replace(/:$/, '') });
    for (let j = i + 1; j < lines.length && lines[j].indent > l.indent; j++) {
      const child = lines[j];
      if (child.indent === l.indent + 1 && (child.role === '/url' || (child.role === 'option' && !child.ref))) {
        out.push({ ...child, indent: depth + 1, text: pad + '  ' + child.text.trimStart() });
      }
    }
  }
  // A dialog or hidden part with nothing to act on inside says no more than the page around it:
  // left out.
  return out.filter((l, k) => !((DIALOG_ROLES.has(l.role) || (ARIA_HIDDEN.test(l.text) && !INTERACTIVE_ROLES.has(l.role))) && !(out[k + 1] && out[k + 1].indent > l.indent)));
}

/** Lines up to a nesting depth; says how many deeper lines it left out. */
function filterDepth(lines: Line[], depth: number): Line[] {
  const kept = lines.filter((l) => l.indent <= depth);
  const hidden = lines.length - kept.length;
  if (hidden === 0) return kept;
  const note = `[depth ${depth}: ${hidden} deeper line${hidden === 1 ? '' : 's'} not shown — raise depth, or use { selector } for one part]`;
  return [...kept, { indent: 0, text: note, role: '' }];
}

/** Drops unnamed `generic` wrappers and lifts their children one level. */
function compact(lines: Line[]): Line[] {
  const out: Line[] = [];
  const lift: number[] = []; // indents of dropped wrappers still open
  for (const l of lines) {
    while (lift.length && l.indent <= lift[lift.length - 1]) lift.pop();
    const isWrapper = l.role === 'generic' && l.name === undefined && /^\s*- generic(?: \[[^\]]*\])*:?\s*$/.test(l.text);
    if (isWrapper) {
      lift.push(l.indent);
      continue;
    }
    const indent = l.indent - lift.length;
    out.push({ ...l, indent, text: '  '.repeat(indent) + l.text.trimStart() });
  }
  return out;
}

function bound(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  const kept = text.slice(0, cut > 0 ? cut : max);
  const total = text.split('\n').length;
  const shown = kept.split('\n').length;
  return `${kept}\n[${what} truncated: showing ${shown} of ${total} lines — narrow it with { interactive: true }, { depth: N } or { selector: "main" }]`;
}

const indentOf = (line: string) => (/^ */.exec(line)![0].length) / 2;
const withoutRefs = (line: string) => line.replace(REF_TOKEN_RE, '');
/** What a diff compares: the line without its ref and without `[active]`, so focus moving from
 * one field to the next (every fill and click does it) is not a change of either line. */
// Nor the pointer cursor: an app that finishes drawing gives its buttons `cursor: pointer`, and
// a button that only gained it read as removed and added again (trials V5, V6).
const diffKey = (line: string) => withoutRefs(line).replace(/ \[(?:active|cursor=pointer)\]/g, '');

/** The loose key a dialog's background is compared by: what a line says, not how it is
 * laid out. Opening a dialog re-roots the tree (every line indents) and a background under
 * `aria-hidden` prints names as text (`heading [level=1]: Orders` for `heading "Orders"
 * [level=1]`); neither is a change of the page behind it. */
function looseKey(line: string): string {
  const l = parseLine(line);
  if (l.unknown) return diffKey(line).trim() + WORDS;
  const attrs = (l.text.match(/\[[^\]]*\]/g) ?? []).filter((a) => !/^\[(?:ref=|active\]|aria-hidden\])/.test(a)).sort();
  const after = /\]?:\s(.*)$/.exec(l.text.replace(REF_TOKEN_RE, ''))?.[1] ?? '';
  let words = after;
  try {
    if (l.name !== undefined) words = JSON.parse(`"${l.name}"`) as string;
  } catch {
    words = l.name ?? after;
  }
  return `${l.role} ${attrs.join(' ')}${WORDS}${words}`;
}

/** Separates a loose key's element part from its words. */
const WORDS = '\u0000';
/** Two loose keys are the same line when their element parts match and their words do, or one
 * side has none: under aria-hidden a form control's name (which comes from its label) is not
 * computed, so `textbox "Email"` prints as `textbox`. */
function sameLoose(x: string, y: string, hidden: { before: boolean; now: boolean }): boolean {
  if (x === y) return true;
  const [ex, wx] = x.split(WORDS);
  const [ey, wy] = y.split(WORDS);
  // Only the side the dialog hid may lack them: a button that read "Login" behind a sign-in
  // dialog and has no words once it closed is another button (the account menu; trial V31,
  // whose sign-in diff said only that the dialog closed).
  return ex === ey && ((!wx && hidden.before) || (!wy && hidden.now));
}

/** An unnamed wrapper without text: structure only (a dialog opening adds one at the root). */
const isBareWrapper = (line: string) => /^\s*- generic(?: \[[^\]]*\])*:?\s*$/.test(line);

/**
 * The hunks between two line lists under `key`, appended to `out`. Each run of changes is
 * preceded by one line of context from the new list — the nearest line above it at its depth
 * or shallower (the label next to it, else its parent) — unless that line was already shown
 * or lies above what was shown: context stays in page order. Removed lines are printed
 * without refs (they are gone); added lines keep theirs.
 */
function hunks(a: string[], b: string[], key: (line: string) => string, out: string[], same?: (x: string, y: string) => boolean): void {
  const parts = diffArrays(a.map(key), b.map(key), same ? { comparator: same } : undefined);
  let i = 0; // position in a
  let j = 0; // position in b
  let lastShown = -1; // the last line of b printed (as context or as added)
  for (let k = 0; k < parts.length; ) {
    if (!parts[k].added && !parts[k].removed) {
      i += parts[k].count;
      j += parts[k].count;
      k++;
      continue;
    }
    const removed: string[] = [];
    const hunkStart = j;
    let firstAdded = -1;
    for (; k < parts.length && (parts[k].added || parts[k].removed); k++) {
      if (parts[k].removed) {
        removed.push(...a.slice(i, i + parts[k].count));
        i += parts[k].count;
      } else {
        if (firstAdded < 0) firstAdded = j;
        j += parts[k].count;
      }
    }
    const depth = indentOf(firstAdded >= 0 ? b[firstAdded] : removed[0]);
    let ctx = hunkStart - 1;
    while (ctx >= 0 && indentOf(b[ctx]) > depth) ctx--;
    if (ctx > lastShown) out.push(`  ${b[ctx]}`);
    for (const line of removed) out.push(`- ${withoutRefs(line)}`);
    for (let n = hunkStart; n < j; n++) out.push(`+ ${b[n]}`);
    lastShown = Math.max(lastShown, j > hunkStart ? j - 1 : ctx);
  }
}

/** The dialogs of a tree: each `dialog`/`alertdialog` line, by what it says, with the range of
 * its subtree. */
function dialogsOf(lines: string[]): Array<{ key: string; label: string; from: number; to: number }> {
  const out: Array<{ key: string; label: string; from: number; to: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*- (dialog|alertdialog)\b(?: "((?:[^"\\]|\\.)*)")?/.exec(lines[i]);
    if (!m) continue;
    let to = i + 1;
    while (to < lines.length && indentOf(lines[to]) > indentOf(lines[i])) to++;
    out.push({ key: diffKey(lines[i]).trim(), label: m[2] !== undefined ? `${m[1]} "${m[2]}"` : m[1], from: i, to });
    i = to - 1;
  }
  return out;
}

const without = (lines: string[], ranges: Array<{ from: number; to: number }>) => lines.filter((_, n) => !ranges.some((r) => n >= r.from && n < r.to));
const plural = (n: number) => `${n} line${n === 1 ? '' : 's'}`;

/** Whether the background of a tree is hidden from assistive technology: a background line
 * under `aria-hidden` (what Playwright's snapshot shows), or the page said a modal is open
 * (aria-modal, or a `<dialog>` opened with showModal()). */
function backgroundHidden(rest: string[], modal: boolean): boolean {
  return modal || rest.some((l) => / \[aria-hidden\]/.test(l));
}

/**
 * What changed between two trees, compared without their refs: a re-rendered element that
 * reads the same is unchanged, however its ref moved (and focus, `[active]`, is not compared).
 * See `hunks` for the context lines.
 *
 * A dialog that opens or closes is said in one line, not as the whole page changing under it:
 * `dialog "Save 1 change?" opened; the page behind it is hidden (N lines)` followed by the
 * dialog's own tree, or `… closed; the page behind it is back (N lines)`; then whatever really
 * changed behind it, compared by what the lines say (looseKey).
 */
export function diffTrees(prev: string | undefined, next: string, modal = { before: false, now: false }): string {
  if (prev === undefined) return BASELINE_DIFF;
  const a = prev.split('\n');
  const b = next.split('\n');
  const out: string[] = [];
  const da = dialogsOf(a);
  const db = dialogsOf(b);
  const opened = db.filter((d) => !da.some((x) => x.key === d.key));
  const closed = da.filter((d) => !db.some((x) => x.key === d.key));
  if (opened.length === 0 && closed.length === 0) {
    hunks(a, b, diffKey, out);
  } else {
    const bare = (l: string) => !isBareWrapper(l);
    const restA = without(a, closed).filter(bare);
    const restB = without(b, opened).filter(bare);
    for (const d of closed) {
      out.push(backgroundHidden(restA, modal.before) ? `${d.label} closed; the page behind it is back (${plural(restB.length)})` : `${d.label} closed`);
    }
    for (const d of opened) {
      out.push(backgroundHidden(restB, modal.now) ? `${d.label} opened; the page behind it is hidden (${plural(restB.length)})` : `${d.label} opened`);
      for (let n = d.from; n < d.to; n++) out.push(`+ ${b[n]}`);
    }
    // The side a dialog was open on is the one whose background may print without names.
    const hidden = { before: closed.length > 0, now: opened.length > 0 };
    hunks(restA, restB, looseKey, out, (x, y) => sameLoose(x, y, hidden));
  }
  return out.length ? bound(out.join('\n'), MAX_DIFF_CHARS, 'diff') : NO_CHANGE_DIFF;
}

/** Whether a modal dialog is open in the page: asked only when the tree shows a dialog. */
async function modalOpen(page: Page, tree: string): Promise<boolean> {
  if (!/^\s*- (?:dialog|alertdialog)\b/m.test(tree)) return false;
  return page
    .evaluate(() =>
      Array.from(document.querySelectorAll('[role=dialog][aria-modal=true], [role=alertdialog][aria-modal=true], dialog')).some((el) =>
        el.tagName === 'DIALOG' ? el.matches(':modal') : (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed',
      ),
    )
    .catch(() => false);
}

/** For a selector snapshot that came back empty: a note when its first match is hidden. */
async function hiddenSelectorNote(page: Page, selector: string): Promise<string> {
  const first = page.locator(selector).first();
  const [visible, count] = await Promise.all([first.isVisible().catch(() => true), page.locator(selector).count().catch(() => 0)]);
  // Shown, but nothing of it is listed (an interactive snapshot of a dialog with no controls):
  // with other matches, it may be the wrong one (trial V17: two dialogs, the first one empty).
  if (visible) return count > 1 ? `[selector ${JSON.stringify(selector)} took its first match of ${count}, which has nothing to list here: name the one you mean (${JSON.stringify(`${selector} >> nth=-1`)} is the last one, often the one opened last), or take a full snapshot]` : '';
  if (count <= 1) return `[selector ${JSON.stringify(selector)} matches one element, which is hidden: open what shows it first, or take a full snapshot]`;
  return `[selector ${JSON.stringify(selector)} took its first match, which is hidden (${count} matches in all): add :visible to take the one shown, ${JSON.stringify(`${selector}:visible`)}]`;
}

export async function takeSnapshot(page: Page, state: PageSnapshotState, opts: SnapshotOptions = {}): Promise<SnapshotResult> {
  if (opts === null || typeof opts !== 'object') throw new AgentError('snapshot(pg, opts): opts must be an object like { interactive: true }.');
  if (opts.depth !== undefined && (!Number.isInteger(opts.depth) || opts.depth < 0)) {
    throw new AgentError('snapshot option depth must be a whole number ≥ 0.');
  }
  let raw: string;
  let secrets: ReadSecrets;
  try {
    [raw, secrets] = await Promise.all([
      opts.selector
        ? page.locator(opts.selector).first().ariaSnapshot({ mode: 'ai', timeout: 5000 } as never)
        : page.ariaSnapshot({ mode: 'ai', timeout: 10_000 } as never),
      // A selector into an iframe snapshots that frame's lines: cut with every frame's values.
      secretValues(page, opts.selector && /enter-frame/.test(opts.selector) ? 'all' : undefined),
    ]);
  } catch (err) {
    if (opts.selector && /Timeout|does not match any element/i.test(String((err as Error)?.message))) {
      throw new AgentError(`snapshot: no element matched selector "${opts.selector}" within 5 s — if the page is still drawing, wait for it first (await pg.locator(${JSON.stringify(opts.selector)}).first().waitFor()); else drop the selector or take a full snapshot to find the right one.`);
    }
    throw toAgentError(err);
  }
  // Unquote, learn the main frame's ref prefix and print its refs as eN, then redact (on
  // unquoted lines, so a secret field is recognised whatever its label holds).
  const unquoted = parse(raw);
  // A selector string is resolved in the main frame unless it explicitly enters an iframe.
  const prefix = opts.selector && /enter-frame/.test(opts.selector) ? undefined : mainFramePrefixOf(unquoted);
  if (prefix !== undefined) state.mainFramePrefix = prefix;
  let lines = parse(redact(withoutMainPrefix(unquoted, state.mainFramePrefix).map((l) => l.text).join('\n'), secrets));
  // Remember what every ref named (from the full tree) for stale-ref messages.
  for (const l of lines) if (l.ref) state.refs.set(l.ref, describeLine(l));
  if (opts.interactive) lines = filterInteractive(lines);
  else if (opts.compact) lines = compact(lines);
  if (opts.depth !== undefined) lines = filterDepth(lines, opts.depth);
  let tree = lines.map((l) => l.text).join('\n');
  // A selector that took a hidden element (a dialog an app keeps closed behind the open one;
  // trial V6) printed nothing at all: say so, and how to take the one shown.
  if (!tree && opts.selector) tree = await hiddenSelectorNote(page, opts.selector);
  // An app that has not drawn yet has none either (trials V18, V19: a snapshot 1.5 s after
  // openTab on Actual Budget): say what to wait for.
  if (opts.interactive && !tree) tree = NO_INTERACTIVE;
  tree = bound(tree, MAX_TREE_CHARS, 'snapshot');
  const modal = { before: state.previousModal ?? false, now: await modalOpen(page, tree) };
  // The previous tree was cut with the secrets known then: a field that became secret since
  // (its label or type changed) would show its old value on the diff's `-` line.
  let diff = cutSeenSecrets(diffTrees(state.previousTree, tree, modal));
  // An interactive diff compares only what can be clicked or filled: text an action showed
  // (choices drawn as plain text, a message) is not in it (trial V12: Ghost's publish options
  // read "no changes" while the screenshot showed them).
  if (diff === NO_CHANGE_DIFF && opts.interactive) diff = NO_CHANGE_INTERACTIVE_DIFF;
  state.previousTree = tree;
  state.previousModal = modal.now;
  state.snapshots++;
  return { tree, diff };
}
