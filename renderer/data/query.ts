import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { BridgeInput, BridgeMethod, BridgeOutput } from '../../shared/bridge';
import { bridge } from './bridge';
import { keepEqual } from './keep-equal';
import { afterPaintWhenIdle } from './schedule';

/**
 * A small read cache over the bridge. Every view reads through `useQuery`; an entry re-reads
 * when the replica changes (coalesced, after the next paint, in idle time, so an edit's own
 * frame paints first), an answer equal to the one held changes nothing (no render), and
 * optimistic edits patch entries in place so a change paints before the host has answered.
 */
export interface Entry<T = unknown> {
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  /** Bumped per read so a slow old answer never overwrites a newer one. */
  seq: number;
}

interface Slot {
  method: BridgeMethod;
  input: unknown;
  entry: Entry;
  /** The latest read sent; an answer to an older one is dropped. */
  seq: number;
  subscribers: Set<() => void>;
  /** Mounted users; an entry nobody watches is dropped after a while. */
  refs: number;
  dropTimer: ReturnType<typeof setTimeout> | null;
}

const slots = new Map<string, Slot>();

export const keyOf = (method: string, input: unknown) => `${method} ${JSON.stringify(input)}`;

const notify = (slot: Slot) => {
  for (const s of slot.subscribers) s();
};

async function read(slot: Slot) {
  const seq = ++slot.seq;
  // Not announced: views show what they have until the answer comes (no flash, no extra render).
  try {
    const answer = await bridge().invoke(slot.method, slot.input as never);
    if (slot.seq !== seq) return;
    const before = slot.entry;
    const data = keepEqual(before.data, withPendingPatches(slot.method, answer));
    if (data === before.data && !before.loading && !before.error) return;
    slot.entry = { data, error: null, loading: false, seq };
  } catch (error) {
    if (slot.seq !== seq) return;
    slot.entry = {
      ...slot.entry,
      error: error instanceof Error ? error : new Error(String(error)),
      loading: false,
      seq,
    };
  }
  notify(slot);
}

function slotFor(method: BridgeMethod, input: unknown): Slot {
  const key = keyOf(method, input);
  let slot = slots.get(key);
  if (!slot) {
    slot = {
      method,
      input,
      entry: { data: undefined, error: null, loading: true, seq: 0 },
      seq: 0,
      subscribers: new Set(),
      refs: 0,
      dropTimer: null,
    };
    slots.set(key, slot);
    void read(slot);
  }
  return slot;
}

/** Caches kept outside this map (a list's pages) that follow the same refresh, patch and clear. */
export interface ExternalCache {
  refresh(): void;
  /** Returns whether anything changed. */
  patch(patch: (method: BridgeMethod, data: unknown) => unknown): boolean;
  clear(reread: boolean): void;
}

const externals = new Set<ExternalCache>();

export function registerCache(cache: ExternalCache): () => void {
  externals.add(cache);
  return () => {
    externals.delete(cache);
  };
}

let refreshQueued = false;

/**
 * Signing out or signed out: a re-read a change asked for (it waits for an idle moment) would
 * reach a host with no session. Until the next sign-in clears the cache to be read again.
 */
let readsHeld = false;

export function holdReads() {
  readsHeld = true;
}

/**
 * Re-reads every watched entry, once however many changes arrive: after the next paint and in
 * idle time, so the frame showing an edit (already painted from the optimistic patch) never
 * also carries the re-reads it caused.
 */
export function refreshAll() {
  if (refreshQueued || readsHeld) return;
  refreshQueued = true;
  afterPaintWhenIdle(() => {
    refreshQueued = false;
    if (readsHeld) return;
    for (const slot of slots.values()) if (slot.refs > 0) void read(slot);
    for (const cache of externals) cache.refresh();
  });
}

type Patch = (method: BridgeMethod, data: unknown) => unknown;

/** The optimistic patches of edits the host has not answered yet. */
const pendingPatches = new Set<Patch>();

/**
 * An answer read while edits were on their way may predate them (a re-read an earlier edit
 * queued): their patches go on top, or a toggle would flick back until the next re-read.
 * The patches set values rather than flip them, so one already in the answer is a no-op.
 */
export function withPendingPatches(method: BridgeMethod, data: unknown): unknown {
  let out = data;
  for (const patch of pendingPatches) out = patch(method, out);
  return out;
}

/** Applies an edit's optimistic patch now and to every answer until the returned release. */
export function holdPatch(patch: Patch): () => void {
  pendingPatches.add(patch);
  patchAll(patch);
  return () => {
    pendingPatches.delete(patch);
  };
}

/** Rewrites cached data in place (optimistic edits); returns how many entries changed. */
export function patchAll(patch: (method: BridgeMethod, data: unknown) => unknown): number {
  let n = 0;
  for (const slot of slots.values()) {
    if (slot.entry.data === undefined) continue;
    const next = patch(slot.method, slot.entry.data);
    if (next !== slot.entry.data) {
      slot.entry = { ...slot.entry, data: next };
      notify(slot);
      n++;
    }
  }
  for (const cache of externals) if (cache.patch(patch)) n++;
  return n;
}

/**
 * Forgets every answer (sign-out, org switch). Watched entries are read again, unless the
 * user is signed out: the views watching them are about to go, and the host would refuse.
 */
export function clearCache({ reread = true }: { reread?: boolean } = {}) {
  readsHeld = !reread;
  for (const slot of slots.values()) {
    slot.seq++;
    slot.entry = { data: undefined, error: null, loading: true, seq: slot.seq };
    if (slot.refs > 0) {
      if (reread) void read(slot);
    } else slots.delete(keyOf(slot.method, slot.input));
  }
  for (const cache of externals) cache.clear(reread);
}

export function useQuery<M extends BridgeMethod>(
  method: M,
  input: BridgeInput<M>,
  enabled = true,
): Entry<BridgeOutput<M>> & { reload: () => void } {
  const key = keyOf(method, input);
  const slot = enabled ? slotFor(method, input) : null;
  useEffect(() => {
    if (!slot) return;
    // An answer kept from an earlier visit paints at once and is read again behind it: changes
    // made while nobody watched it did not refresh it. A read that failed then is tried again,
    // or the view would show that failure for the minute the entry is kept.
    if (slot.refs === 0 && (slot.entry.data !== undefined || slot.entry.error)) void read(slot);
    slot.refs++;
    if (slot.dropTimer) clearTimeout(slot.dropTimer);
    slot.dropTimer = null;
    return () => {
      slot.refs--;
      if (slot.refs === 0) {
        // Kept a little so going back to a view paints from memory at once.
        slot.dropTimer = setTimeout(() => {
          if (slot.refs === 0) slots.delete(key);
        }, 60_000);
      }
    };
  }, [slot, key]);
  // Stable per slot: a new subscribe function would make React resubscribe on every render.
  const subscribe = useCallback(
    (cb: () => void) => {
      if (!slot) return () => undefined;
      slot.subscribers.add(cb);
      return () => {
        slot.subscribers.delete(cb);
      };
    },
    [slot],
  );
  const entry = useSyncExternalStore(subscribe, () => (slot ? slot.entry : idle));
  return {
    ...(entry as Entry<BridgeOutput<M>>),
    reload: () => {
      if (slot) void read(slot);
    },
  };
}

const idle: Entry = { data: undefined, error: null, loading: false, seq: 0 };
