import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AWAY_MARKER_FILE, spanFromMarker, takeAwayMarker, writeAwayMarker } from './away-marker';

const T = Date.UTC(2026, 10, 22, 18, 0, 0);

describe('away marker', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is read once, and a corrupt one is ignored', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'away-'));
    expect(takeAwayMarker(dir)).toBeNull();
    writeAwayMarker(dir, { trackId: 12, at: T });
    expect(takeAwayMarker(dir)).toEqual({ trackId: 12, at: T });
    expect(existsSync(path.join(dir, AWAY_MARKER_FILE))).toBe(false);
    expect(takeAwayMarker(dir)).toBeNull();
    writeFileSync(path.join(dir, AWAY_MARKER_FILE), '{"trackId":"12"}');
    expect(takeAwayMarker(dir)).toBeNull();
  });

  it('asks at launch only while the same timer still runs', () => {
    const marker = { trackId: 12, at: T };
    const next = T + 14 * 3_600_000;
    expect(spanFromMarker(marker, { trackId: 12, state: 'RUNNING' }, next)).toEqual({
      reason: 'shutdown',
      from: T,
      to: next,
    });
    expect(spanFromMarker(marker, { trackId: 12, state: 'PAUSED' }, next)).toBeNull();
    expect(spanFromMarker(marker, { trackId: 13, state: 'RUNNING' }, next)).toBeNull();
    expect(spanFromMarker(marker, null, next)).toBeNull();
    expect(spanFromMarker(null, { trackId: 12, state: 'RUNNING' }, next)).toBeNull();
  });
});
