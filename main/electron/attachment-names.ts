/**
 * What the host calls an attachment's local copy, and whether it hands that copy to the
 * system's app. An attachment's name is anyone's text (any org member renames files; a
 * malicious server names them as it likes), and the system picks the app — or runs the file —
 * by the name's last extension. So the name is rebuilt from a cleaned base, cut short, and the
 * cleaned extension, always kept; and only the document types below open directly.
 */

/**
 * The types the host opens with the system's app: documents and images whose usual apps do
 * not run what they contain. Everything else (programs, scripts, archives, HTML and SVG,
 * which open in a browser, macro-enabled Office files, unknown types) is shown in its folder,
 * for the user to open knowingly.
 */
export const OPENED_DIRECTLY: Readonly<Record<string, 'document' | 'image'>> = {
  pdf: 'document',
  txt: 'document',
  md: 'document',
  csv: 'document',
  docx: 'document',
  xlsx: 'document',
  pptx: 'document',
  odt: 'document',
  ods: 'document',
  odp: 'document',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  bmp: 'image',
};

/** At most this many UTF-8 bytes of the base: file systems count bytes (255 per name). */
const MAX_BASE_BYTES = 120;
const MAX_EXTENSION = 16;
const FALLBACK = 'attachment';

/**
 * Characters that never go into a name: controls (NUL, newlines, C1), format characters (the
 * right-to-left override U+202E that shows `evil\u202Efdp.exe` as `evilexe.pdf`, zero-width
 * and other invisible marks), lone surrogates, line and paragraph separators, and what
 * Windows reserves or reads as a path (`<>:"/\|?*`; `:` also names an NTFS stream).
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}<>:"/\\|?*]/gu;

/** Device names Windows reserves whatever the extension (`nul.txt` is the null device). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * No dot or space at either end: Windows drops trailing ones (`x.exe.` would be `x.exe`), a
 * leading dot hides the file on Unix (and `.`, `..` name folders).
 */
const trimEnds = (s: string) => s.replace(/^[. ]+/, '').replace(/[. ]+$/, '');

/** The name with unsafe characters replaced and its ends trimmed. */
const cleaned = (name: string) => trimEnds(name.replace(UNSAFE, '_'));

/** The longest prefix of `s` within `max` UTF-8 bytes, cut between code points. */
const cutToBytes = (s: string, max: number): string => {
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    bytes += Buffer.byteLength(ch, 'utf8');
    if (bytes > max) break;
    out += ch;
  }
  return out;
};

/** The last extension, kept only as it is: cleaning `ex e` into `exe` would make a program. */
const EXTENSION = new RegExp(`^[A-Za-z0-9]{1,${MAX_EXTENSION}}$`);

/** The name's extension, lowercase, when it is plain letters and digits; else ''. */
export const extensionOf = (name: string): string => {
  const whole = cleaned(name);
  const dot = whole.lastIndexOf('.');
  const ext = dot < 0 ? '' : whole.slice(dot + 1);
  return EXTENSION.test(ext) ? ext.toLowerCase() : '';
};

/**
 * A file name safe to create and to hand to the system on every platform: one path component,
 * no unsafe characters, no dot or space at either end, no Windows device name, the base cut to
 * MAX_BASE_BYTES and the extension always kept, so cutting never exposes an inner `.exe`. A
 * name without a plain extension gets none (its dots become `_`): `x.exe.$$$` must not end up
 * as `x.exe`.
 */
export const safeFileName = (name: string): string => {
  const whole = cleaned(name);
  const ext = extensionOf(name);
  const rawBase = ext === '' ? whole.replaceAll('.', '_') : whole.slice(0, whole.lastIndexOf('.'));
  let base = trimEnds(cutToBytes(rawBase, MAX_BASE_BYTES));
  if (base === '') base = FALLBACK;
  // Windows reads the part before the first dot as the device: `con.backup.txt` too.
  const stem = trimEnds(base.split('.')[0] ?? '');
  if (WINDOWS_DEVICE.test(stem)) base = `_${base}`;
  return ext === '' ? base : `${base}.${ext}`;
};

/** Whether a copy with this (safe) name opens directly, or is shown in its folder. */
export const opensDirectly = (fileName: string): boolean =>
  Object.hasOwn(OPENED_DIRECTLY, extensionOf(fileName));
