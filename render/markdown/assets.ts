// What a Markdown document may load, and from where. Local images are inlined as data: URLs so
// the rendered page needs nothing but itself; remote loads are refused (unless the caller allows
// the network) and every refusal is reported once, so a hostile or careless document can never
// phone home while looking as if it rendered completely.
import { realpathSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GstackError } from '../../driver/errors.js';
import { MAX_IMAGE_BYTES } from '../api/inputs.js';
import { readRegularFileSync } from '../../driver/read-file.js';
import { cssRefs } from '../page/css-refs.js';

/** The first segment of a relative path that starts with a dot (`.ssh`), if any. `..` never
 * reaches here: the path is inside the document folder. */
function hiddenSegment(rel: string): string | undefined {
  return rel.split(/[\\/]/).find((seg) => seg.startsWith('.') && seg !== '.' && seg !== '..');
}

export type ImageResolution =
  | { kind: 'inline'; src: string }
  | { kind: 'remote'; src: string }
  | { kind: 'blocked'; url: string }
  /** A remote image the caller asked to leave out (--remote-images alt|omit). */
  | { kind: 'dropped'; url: string; mode: 'alt' | 'omit' }
  | { kind: 'missing'; ref: string; reason: string };

export interface AssetNotice {
  kind: 'blocked-image' | 'blocked-stylesheet' | 'blocked-font' | 'blocked-resource' | 'missing-image' | 'skipped-stylesheet';
  ref: string;
  message: string;
  /** False when nothing in the body marks the spot (a dropped <style> block): the document
   * then lists it in a visible notice box instead. */
  inline: boolean;
}

/** A missing or refused asset under --strict: the render fails (exit SCRIPT_FAILED). */
export class StrictAssetError extends GstackError {
  constructor(message: string) {
    super(message, 'SCRIPT_FAILED');
  }
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
};

/** A reference that would make the browser talk to another host. Read as the URL parser reads
 * it: leading C0 controls and spaces stripped, tabs and newlines anywhere removed. */
export function isRemoteRef(ref: string): boolean {
  const r = ref.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  // `\\host` and `/\host` are `//host` to the URL parser.
  if (/^[\\/]{2}/.test(r)) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(r)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'data' && scheme !== 'file' && scheme !== 'about' && scheme !== 'blob';
}

/** Every url(...), image-set() string and @import target in a piece of CSS, escapes decoded
 * (render/page/css-refs.ts). */
export { cssRefs };

export interface AssetPolicyOptions {
  /** Directory of the Markdown file: relative references resolve here and may not leave it. */
  baseDir: string;
  allowNetwork: boolean;
  strict: boolean;
  /** What a remote image becomes: `alt` its alt text, `omit` nothing; default (`placeholder`):
   * loaded with allowNetwork, else a visible "blocked" placeholder. */
  remoteImages?: RemoteImages;
  /** A link to a file beside the document (`[spec](./spec.md)`): kept for an HTML file, which
   * sits beside what it links to; for a PDF, `text` keeps the words and drops the link, as
   * Chromium would resolve it against the render server's address, dead once the call ends. */
  fileLinks?: 'keep' | 'text';
}

export type RemoteImages = 'placeholder' | 'alt' | 'omit';

export class AssetPolicy {
  readonly notices: AssetNotice[] = [];
  /** Remote images left out or replaced by their alt text (--remote-images alt|omit). */
  readonly droppedImages: string[] = [];
  /** Links to files beside the document printed as plain text (fileLinks: 'text'). */
  readonly textLinks: string[] = [];
  private readonly root: string;

  constructor(private readonly opts: AssetPolicyOptions) {
    this.root = realpathSync(opts.baseDir);
  }

  private notice(n: AssetNotice): void {
    this.notices.push(n);
    if (this.opts.strict && n.kind === 'missing-image') throw new StrictAssetError(n.message + ' (--strict)');
  }

  /** `srcset`: the element's srcset, named in the notice when it is all the image has (the
   * print takes `src` only: a srcset picks by screen, and a PDF has none). */
  image(rawSrc: string | undefined, srcset?: string): ImageResolution {
    const src = (rawSrc ?? '').trim();
    if (!src) {
      const onlySrcset = !!srcset?.trim();
      const message = onlySrcset ? 'image with only a srcset: give the <img> a src (a PDF prints src; srcset picks by screen)' : 'image with an empty src';
      this.notice({ kind: 'missing-image', ref: '', message, inline: true });
      return { kind: 'missing', ref: '', reason: onlySrcset ? 'srcset without src' : 'empty src' };
    }
    if (/^data:image\//i.test(src)) return { kind: 'inline', src };
    if (isRemoteRef(src)) {
      const mode = this.opts.remoteImages ?? 'placeholder';
      if (mode !== 'placeholder') {
        this.droppedImages.push(src);
        return { kind: 'dropped', url: src, mode };
      }
      if (this.opts.allowNetwork && /^(https?:)?\/\//i.test(src)) return { kind: 'remote', src };
      this.notice({ kind: 'blocked-image', ref: src, message: `blocked remote image ${src} (pass --allow-network to load it)`, inline: true });
      return { kind: 'blocked', url: src };
    }
    if (/^data:/i.test(src)) {
      this.notice({ kind: 'missing-image', ref: src.slice(0, 40), message: 'image data: URL that is not an image', inline: true });
      return { kind: 'missing', ref: src.slice(0, 40), reason: 'not an image' };
    }
    return this.localImage(src);
  }

  private localImage(src: string): ImageResolution {
    let path: string;
    try {
      path = src.toLowerCase().startsWith('file:') ? fileURLToPath(src) : decodeURI(src.replace(/[?#].*$/, ''));
    } catch {
      return this.missing(src, 'malformed path');
    }
    const abs = isAbsolute(path) ? path : resolve(this.root, path);
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      return this.missing(src, 'file not found');
    }
    // Same rule as the render server: a document may only pull files from its own folder, so a
    // rendered report cannot smuggle ~/.ssh or /etc into a PDF.
    if (real !== this.root && !real.startsWith(this.root + sep)) return this.missing(src, 'outside the document folder');
    // And the render server's other rule: nothing under a dot-name (.ssh, .git, .env), as
    // written or as its real path, since a document folder may be a home or a project whose
    // dotfiles hold keys (docs/SECURITY.md).
    const hidden = hiddenSegment(relative(this.root, abs)) ?? hiddenSegment(relative(this.root, real));
    if (hidden) return this.missing(src, `under ${hidden}: files and folders whose name starts with "." are never inlined`);
    const type = IMAGE_TYPES[extname(real).toLowerCase()];
    if (!type) return this.missing(src, 'not an image file type');
    // Opened without blocking and read bounded: a FIFO or device named as an image never hangs.
    const read = readRegularFileSync(real, MAX_IMAGE_BYTES);
    if (!read.ok) return this.missing(src, read.why === 'missing' ? 'file not found' : read.detail);
    return { kind: 'inline', src: `data:${type};base64,${read.bytes.toString('base64')}` };
  }

  private missing(ref: string, reason: string): ImageResolution {
    this.notice({ kind: 'missing-image', ref, message: `missing image ${ref} (${reason})`, inline: true });
    return { kind: 'missing', ref, reason };
  }

  /** A <link> in the document body: never applied; remote ones are reported as blocked. */
  /** Whether an `<a href>` keeps its link: a fragment, a web or mail address always does; a
   * path (relative or absolute) or a `file:` URL only where fileLinks is `keep`. */
  anchorKeepsLink(href: string | undefined): boolean {
    const ref = (href ?? '').replace(/^[\u0000-\u0020]+/, '');
    if (!ref || ref.startsWith('#') || this.opts.fileLinks !== 'text') return true;
    if (isRemoteRef(ref) || /^(?:mailto|tel):/i.test(ref)) return true;
    this.textLinks.push(ref);
    return false;
  }

  link(href: string | undefined, rel: string | undefined): AssetNotice | undefined {
    const ref = (href ?? '').trim();
    if (!ref) return undefined;
    const isStylesheet = /\bstylesheet\b/i.test(rel ?? '');
    if (isRemoteRef(ref)) {
      const n: AssetNotice = {
        kind: isStylesheet ? 'blocked-stylesheet' : 'blocked-resource',
        ref,
        message: `blocked remote ${isStylesheet ? 'stylesheet' : 'resource'} ${ref}${this.opts.allowNetwork ? ' (<link> elements are not applied)' : ' (pass --allow-network to allow remote loads)'}`,
        inline: true,
      };
      this.notice(n);
      return n;
    }
    if (isStylesheet) {
      const n: AssetNotice = { kind: 'skipped-stylesheet', ref, message: `skipped linked stylesheet ${ref} (<link> elements are not applied; use a <style> block)`, inline: false };
      this.notice(n);
      return n;
    }
    return undefined;
  }

  /** Whether a <style> block may stay. One remote reference drops it, unless the network is allowed. */
  styleBlock(css: string): boolean {
    const remote = cssRefs(css).filter((r) => isRemoteRef(r.url));
    if (remote.length === 0 || this.opts.allowNetwork) return true;
    for (const r of remote) {
      const what = r.isImport ? 'stylesheet' : r.isFont ? 'font' : 'resource';
      this.notice({
        kind: r.isImport ? 'blocked-stylesheet' : r.isFont ? 'blocked-font' : 'blocked-resource',
        ref: r.url,
        message: `blocked remote ${what} ${r.url} (its <style> block was dropped; pass --allow-network to load it)`,
        inline: false,
      });
    }
    return false;
  }
}
