import { describe, expect, it } from 'vitest';
import { outsideAsar } from '../../sync/engine/outside-asar';

describe('outsideAsar', () => {
  it('maps a file inside app.asar to the unpacked copy beside it', () => {
    expect(outsideAsar('file:///opt/Worktray/resources/app.asar/dist-electron/main.js')).toBe(
      'file:///opt/Worktray/resources/app.asar.unpacked/dist-electron/main.js',
    );
    expect(
      outsideAsar('C:\\Program Files\\Worktray\\resources\\app.asar\\dist-electron\\worker.js'),
    ).toBe('C:\\Program Files\\Worktray\\resources\\app.asar.unpacked\\dist-electron\\worker.js');
  });

  it('leaves paths outside an archive, and already unpacked ones, alone', () => {
    for (const p of [
      'file:///home/me/worktray/dist-electron/main.js',
      'file:///opt/Worktray/resources/app.asar.unpacked/dist-electron/worker.js',
      '/opt/app.asarx/main.js',
      '/opt/Worktray/resources/app.asar',
    ])
      expect(outsideAsar(p)).toBe(p);
  });
});
