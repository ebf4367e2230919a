import type { Stream } from '../db/queries/sync-state';

export type PullMode = 'bootstrap' | 'delta';

/** What a progress bar needs: per stream, how far, and the whole pull's totals. */
export interface PullProgress {
  stream: Stream;
  mode: PullMode;
  /** Items of this stream written so far in this pull (a resumed bootstrap counts what it had). */
  itemsDone: number;
  /** Known for the small streams; the bulk export does not say how many are left. */
  total: number | null;
  /** Response bytes received in this pull, all streams. */
  bytes: number;
  done: boolean;
}

export interface StreamResult {
  stream: Stream;
  mode: PullMode;
  upserted: number;
  deleted: number;
  pages: number;
}

export interface PullResult {
  streams: StreamResult[];
  /** True when the replica was wiped and filled again because the server refused a delta. */
  rebootstrapped: boolean;
  durationMs: number;
}

export class PullCancelledError extends Error {
  constructor() {
    super('the pull was cancelled');
  }
}
