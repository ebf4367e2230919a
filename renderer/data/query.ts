import { useEffect, useSyncExternalStore } from 'react';
import type { BridgeInput, BridgeMethod, BridgeOutput } from '../../shared/bridge';
import { bridge } from './bridge';

/**
 * A small read cache over the bridge. Every view reads through `useQuery`; an entry re-reads
 * when the replica changes (coalesced to one read per frame), and optimistic edits patch
 * entries in place so a change paints before the host has answered.
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
  const seq = slot.entry.seq + 1;
  // Not announced: views show what they have until the answer comes (no flash, no extra render).
  slot.entry = { ...slot.entry, loading: true, seq };
  try {
    const data = await bridge().invoke(slot.method, slot.input as never);
    if (slot.entry.seq !== seq) return;
    slot.entry = { data, error: null, loading: false, seq };
  } catch (error) {
    if (slot.entry.seq !== seq) return;
    slot.entry = {
      ...slot.entry,
      error: error instanceof Error ? error : new Error(String(error)),
      loading: false,
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
      subscribers: new Set(),
      refs: 0,
      dropTimer: null,
    };
    slots.set(key, slot);
    void read(slot);
  }
  return slot;
}

let refreshQueued = false;

/** Re-reads every watched entry (once per frame however many changes arrive). */
export function refreshAll() {
  if (refreshQueued) return;
  refreshQueued = true;
  const run = () => {
    refreshQueued = false;
    for (const slot of slots.values()) if (slot.refs > 0) void read(slot);
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  else setTimeout(run, 0);
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
  return n;
}

/** Forgets everything (sign-out, org switch): the next reads come from the new replica. */
export function clearCache() {
  for (const slot of slots.values()) {
    slot.entry = { data: undefined, error: null, loading: true, seq: slot.entry.seq + 1 };
    if (slot.refs > 0) void read(slot);
    else slots.delete(keyOf(slot.method, slot.input));
  }
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
    // made while nobody watched it did not refresh it.
    if (slot.refs === 0 && slot.entry.data !== undefined && !slot.entry.loading) void read(slot);
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
  const entry = useSyncExternalStore(
    (cb) => {
      if (!slot) return () => undefined;
      slot.subscribers.add(cb);
      return () => slot.subscribers.delete(cb);
    },
    () => (slot ? slot.entry : idle),
  );
  return {
    ...(entry as Entry<BridgeOutput<M>>),
    reload: () => {
      if (slot) void read(slot);
    },
  };
}

const idle: Entry = { data: undefined, error: null, loading: false, seq: 0 };
