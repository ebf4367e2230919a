import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BridgeEndpoint } from '../../main/bridge/endpoint';
import { extensionOf, safeFileName } from '../../main/electron/attachment-names';
import { hostOpensAttachments } from '../../main/electron/attachment-opener';
import type { AttachmentFile } from '../../shared/bridge';
import type { BridgeResponse } from '../../shared/bridge/define';
import { tempDir } from '../sync/support';

// Issue 15, item 1: an attachment's name is anyone's text (an org member renames it, a
// malicious server names it as it likes), and the system picks the app — or runs the file —
// by the copy's extension. "A"×196 + ".exe.txt" was cut to 200 characters and became
// `AAAA….exe`, which shell.openPath runs on Windows. The host's opener against a temp
// replicas folder, with stand-ins for Electron's shell and the download mark.

const REPLICA = 'replica-0123456789abcdef-u1-o1.files';

/** What the stand-ins saw, in order. */
type Seen = { call: 'mark' | 'open' | 'show'; path: string };

const setup = () => {
  const replicasDir = tempDir('wt-hostile-');
  const cached = join(replicasDir, REPLICA, 'attachments', '7');
  mkdirSync(dirname(cached), { recursive: true });
  writeFileSync(cached, 'content of attachment 7');
  const seen: Seen[] = [];
  let serverName = 'report.pdf';
  let markFails = false;
  const inner: BridgeEndpoint = {
    subscribe: () => () => {},
    call: async (): Promise<BridgeResponse> => ({
      ok: true,
      value: {
        url: null,
        fileName: serverName,
        path: cached,
        contentType: null,
        size: 23,
        source: 'cache',
        openedByHost: false,
      } satisfies AttachmentFile,
    }),
  };
  const endpoint = hostOpensAttachments(inner, {
    replicasDir,
    openPath: async (path) => {
      seen.push({ call: 'open', path });
      return '';
    },
    showItemInFolder: (path) => {
      seen.push({ call: 'show', path });
    },
    markDownloaded: async (path) => {
      if (markFails) throw new Error('the volume keeps no streams');
      seen.push({ call: 'mark', path });
    },
  });
  const openedDir = join(replicasDir, REPLICA, 'opened', '7');
  return {
    seen,
    openedDir,
    /** Opens attachment 7 as the server names it: the answer. */
    async open(name: string) {
      serverName = name;
      seen.length = 0;
      return endpoint.call('attachments.open', { attachmentId: 7 });
    },
    failMarking() {
      markFails = true;
    },
  };
};

const answered = (r: BridgeResponse) => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value as AttachmentFile;
};

/** A name any platform creates as given and hands to no other file or device. */
const expectSafe = (name: string) => {
  expect(name).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}<>:"/\\|?*]/u);
  expect(name).not.toMatch(/^[. ]|[. ]$/);
  expect(name.split('.')[0]).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/i);
  expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255);
};

describe('the host opens an attachment named by a hostile server', () => {
  let t: ReturnType<typeof setup>;
  beforeEach(() => {
    t = setup();
  });

  it('"A"×196 + ".exe.txt" is copied as a shortened .txt, marked, then opened as text', async () => {
    const name = `${'A'.repeat(196)}.exe.txt`;
    const file = answered(await t.open(name));
    const copy = basename(file.path);
    expect(copy.endsWith('.txt')).toBe(true);
    expect(copy).not.toMatch(/\.exe$/i);
    expect(copy.length).toBeLessThan(name.length - 40);
    expect(dirname(file.path)).toBe(t.openedDir);
    expect(readFileSync(file.path, 'utf8')).toBe('content of attachment 7');
    expect(t.seen).toEqual([
      { call: 'mark', path: file.path },
      { call: 'open', path: file.path },
    ]);
    expect(file).toMatchObject({ openedByHost: true, shownInFolder: false });
  });

  it('documents and images open directly; anything else is shown in its folder, marked', async () => {
    for (const name of ['report.pdf', 'notes.MD', 'photo.jpeg', 'sheet.xlsx', 'data.csv']) {
      const file = answered(await t.open(name));
      expect(
        t.seen.map((s) => s.call),
        name,
      ).toEqual(['mark', 'open']);
      expect(file.shownInFolder).toBe(false);
    }
    for (const name of [
      'invoice.pdf.exe',
      'setup.msi',
      'run.bat',
      'x.ps1',
      'x.scr',
      'x.lnk',
      'x.jar',
      'page.html',
      'logo.svg',
      'macro.docm',
      'archive.zip',
      'no extension',
      'x.exe.',
      'x.exe . .',
      'evil\u202Efdp.exe',
      'report.exe.$$$',
      'x.txt:evil.exe',
    ]) {
      const file = answered(await t.open(name));
      expect(t.seen, name).toEqual([
        { call: 'mark', path: file.path },
        { call: 'show', path: file.path },
      ]);
      expect(file, name).toMatchObject({ openedByHost: true, shownInFolder: true });
      expect(existsSync(file.path)).toBe(true);
    }
  });

  it("every hostile name becomes one safe file in the attachment's folder, extension kept", async () => {
    const cases: [string, string][] = [
      ['evil\u202Efdp.exe', 'evil_fdp.exe'],
      ['bell\u0007\ttab\u0000.txt', 'bell__tab_.txt'],
      ['zero\u200Bwidth\uFEFF.pdf', 'zero_width_.pdf'],
      ['CON', '_CON'],
      ['nul.txt', '_nul.txt'],
      ['com1.tar.txt', '_com1.tar.txt'],
      ['LPT9 .pdf', '_LPT9.pdf'],
      ['trailing. . ', 'trailing'],
      ['x.exe.', 'x.exe'],
      ['x.exe . .', 'x.exe'],
      ['..', 'attachment'],
      ['../../etc/passwd', '____etc_passwd'],
      ['C:\\Windows\\win.ini.txt', 'C__Windows_win.ini.txt'],
      ['x.txt:evil.exe', 'x.txt_evil.exe'],
      ['report.exe.$$$', 'report_exe_$$$'],
      ['x.ex e', 'x_ex e'],
      ['.bashrc', 'bashrc'],
      ['REPORT.PDF', 'REPORT.pdf'],
      ['lone \uD800 surrogate.txt', 'lone _ surrogate.txt'],
    ];
    for (const [name, expected] of cases) {
      const file = answered(await t.open(name));
      expect(basename(file.path), JSON.stringify(name)).toBe(expected);
      expect(dirname(file.path)).toBe(t.openedDir);
      expectSafe(expected);
    }
    // A long name in a script of three-byte characters stays within 255 bytes, extension kept.
    const wide = answered(await t.open(`${'報'.repeat(150)}.pdf`));
    expect(basename(wide.path).endsWith('.pdf')).toBe(true);
    expectSafe(basename(wide.path));
    // Nothing was written outside the attachment's folder.
    expect(readdirSync(join(t.openedDir, '..'))).toEqual(['7']);
  });

  it("any name: the copy keeps exactly the name's plain extension (or none), safely named", async () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.constantFrom('.', '..', ' ', '.exe', '.txt', '\u202E', '\u0000', ':', 'CON', '/', '\\'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(300), (parts, pad) => {
        const name = 'A'.repeat(pad) + parts.join('');
        const safe = safeFileName(name);
        expectSafe(safe);
        expect(extensionOf(safe)).toBe(extensionOf(name));
        expect(safe.endsWith(extensionOf(name))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('a copy that cannot be marked as downloaded is neither opened nor kept', async () => {
    t.failMarking();
    const r = await t.open('report.pdf');
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'rejected', message: expect.stringContaining('marked as downloaded') },
    });
    expect(t.seen).toEqual([]);
    expect(readdirSync(t.openedDir)).toEqual([]);
  });
});
