// How a Chromium-family browser encrypts its cookie values on this OS, and where its key comes
// from. This file owns key retrieval and decryption only; finding and reading the cookie
// database is browser-cookies.ts.
//
// - Linux `v10`: AES-128-CBC (IV of 16 spaces) with a key derived (PBKDF2-SHA1, salt
//   "saltysalt", 1 iteration, 16 bytes) from the fixed password "peanuts": what a browser
//   started with --password-store=basic, or without a keyring, writes.
// - Linux `v11`: the same cipher, keyed from a password the browser keeps in the desktop
//   keyring (Secret Service, attribute application=<browser>), read with `secret-tool`.
//   A browser that once had no keyring writes v11 with an empty password: tried last.
// - macOS `v10`: keyed from the Keychain item "<Browser> Safe Storage" (the user may be asked
//   to allow it), 1003 PBKDF2 iterations.
// - Windows (DPAPI, app-bound `v20`): not supported; the caller says so.
// Cookie databases of schema version 24 and later put SHA-256(host_key) before the value:
// stripped here, and checked, which also tells a right key from a wrong one.
//
// Secrets never leave this file in a message: no key, keyring password or cookie value, and
// no output of secret-tool or security (either could carry the password).
import { createDecipheriv, createHash, pbkdf2Sync } from 'node:crypto';
import { execFile } from 'node:child_process';

const SALT = 'saltysalt';
const IV = Buffer.alloc(16, 0x20);
/** Chromium's cookie DB schema version from which values carry the SHA-256 of their host. */
export const HOST_HASH_SCHEMA_VERSION = 24;

export type EncryptionVersion = 'v10' | 'v11' | 'other';

export function encryptionVersion(encrypted: Uint8Array): EncryptionVersion {
  const p = Buffer.from(encrypted.subarray(0, 3)).toString('latin1');
  return p === 'v10' || p === 'v11' ? p : 'other';
}

export function deriveKey(password: string, iterations: number): Buffer {
  return pbkdf2Sync(password, SALT, iterations, 16, 'sha1');
}

/** The fixed Linux `v10` key (Chromium's own constant, public in its source). */
export const LINUX_V10_KEY = deriveKey('peanuts', 1);

/**
 * Decrypts one `v10`/`v11` value; undefined when the key is wrong (bad padding, a host hash
 * that does not match) or the value is damaged. `hostHash`: the schema puts SHA-256(host_key)
 * first.
 */
export function decryptCookieValue(encrypted: Uint8Array, key: Buffer, hostKey: string, hostHash: boolean): string | undefined {
  const body = Buffer.from(encrypted.subarray(3));
  if (body.length === 0 || body.length % 16 !== 0) return undefined;
  let plain: Buffer;
  try {
    const d = createDecipheriv('aes-128-cbc', key, IV);
    plain = Buffer.concat([d.update(body), d.final()]);
  } catch {
    return undefined; // bad padding: not this key
  }
  if (hostHash) {
    if (plain.length < 32 || !plain.subarray(0, 32).equals(createHash('sha256').update(hostKey).digest())) return undefined;
    plain = plain.subarray(32);
  }
  const text = plain.toString('utf8');
  // A wrong key that happens to give valid padding yields bytes no cookie holds.
  // eslint-disable-next-line no-control-regex
  if (text.includes('\uFFFD') || /[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) return undefined;
  return text;
}

/** Why no key could be had: a one-line reason, never containing a secret. */
export class KeyUnavailable extends Error {}

export interface KeyringFacts {
  /** Shown in messages: "Chrome". */
  label: string;
  /** Secret Service `application` attribute values to try, in order. */
  secretApplications: string[];
  /** macOS Keychain service name: "Chrome Safe Storage". */
  keychainService: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ ok: boolean; stdout: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024, encoding: 'utf8' }, (err, stdout) => {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      resolve({ ok: !err, stdout: String(stdout ?? ''), missing: code === 'ENOENT' });
    });
  });
}

/**
 * Candidate `v11` keys on Linux, most likely first: each Secret Service entry secret-tool finds
 * for the browser, then the empty-password key. `reason` is the line to report when none of
 * them decrypts the browser's values (the caller tries them).
 */
export async function linuxV11Candidates(facts: KeyringFacts, env: NodeJS.ProcessEnv): Promise<{ keys: Buffer[]; reason: string }> {
  const keys: Buffer[] = [];
  let reason = '';
  let found = 0;
  for (const app of facts.secretApplications) {
    // A locked keyring makes secret-tool ask the user to unlock it: allow time for that.
    const r = await run('secret-tool', ['lookup', 'application', app], env, 60_000);
    if (r.missing) {
      reason = `${facts.label} keeps its cookie key in the desktop keyring (v11) and \`secret-tool\` is not installed to read it (Debian/Ubuntu: sudo apt-get install libsecret-tools)`;
      break;
    }
    const password = r.stdout.replace(/\r?\n$/, '');
    if (r.ok && password) {
      found++;
      keys.push(deriveKey(password, 1));
    }
  }
  if (!reason) {
    reason = found
      ? `the key ${facts.label} keeps in the desktop keyring does not decrypt its cookies`
      : `${facts.label} keeps its cookie key in a desktop keyring that has no entry for it through the Secret Service (KWallet or another keyring?)`;
  }
  keys.push(deriveKey('', 1));
  return { keys, reason };
}

/** The macOS key: the Keychain item "<Browser> Safe Storage" (the user may be asked). */
export async function macKey(facts: KeyringFacts, env: NodeJS.ProcessEnv): Promise<Buffer> {
  const r = await run('security', ['find-generic-password', '-w', '-s', facts.keychainService], env, 120_000);
  const password = r.stdout.replace(/\r?\n$/, '');
  if (!r.ok || !password) {
    throw new KeyUnavailable(`the macOS Keychain did not give the "${facts.keychainService}" key (access denied, or no such item)`);
  }
  return deriveKey(password, 1003);
}
