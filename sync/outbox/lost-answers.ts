/**
 * What the push does about answers it never got (a timeout, a reset, a crash mid-request):
 * a create that may have reached the server is looked up before it goes again, and adopted
 * when found, so the user never gets the entity twice; an adopted write is told in "Changes
 * from sync". The lookups themselves are reconcile.ts's.
 */
import { recordChange } from '../changes/store';
import type { Sqlite } from '../db/open';
import { mayHaveReachedServer } from './coalesce';
import { serverIdOf } from './local-ids';
import { allMutations, getMutation } from './queue';
import { lookUpLostCreate, type ReconcileContext } from './reconcile';
import { kindSpec, parseEntityKey, type QueuedMutation } from './types';

/** A create whose earlier attempt may have been committed though its answer never came. */
const mayBeLostCreate = (row: QueuedMutation): boolean =>
  kindSpec(row.kind).effect === 'create' && mayHaveReachedServer(row);

/** Before a row goes: the server's entity when an earlier attempt made it, else send it. */
export type BeforeSend =
  | { type: 'found'; found: unknown; path: Record<string, number> }
  /** `twin`: more entities match than rows of ours, so sending may make one more. */
  | { type: 'send'; twin: boolean };

/**
 * Looks a lost create up before it is sent again (a service that ignores Idempotency-Key may
 * have made it). Throws when the lookup fails: nothing went, and the row keeps what the lost
 * attempt may have done.
 */
export async function lookBeforeSend(
  ctx: ReconcileContext,
  row: QueuedMutation,
): Promise<BeforeSend> {
  if (!mayBeLostCreate(row)) return { type: 'send', twin: false };
  const lost = await lookUpLostCreate(ctx, row);
  if (lost && 'found' in lost) return { type: 'found', found: lost.found, path: lost.path };
  return { type: 'send', twin: lost !== null };
}

/**
 * Looks up every pending create whose answer was lost and hands the ones the server has to
 * `adopt` (which writes the server's entity as its answer). Run before a pull: a pull would
 * otherwise bring the server's copy beside the local one. Returns how many were adopted.
 */
export async function adoptLostCreates(
  ctx: ReconcileContext,
  adopt: (row: QueuedMutation, found: unknown, path: Record<string, number>) => void,
): Promise<number> {
  let adopted = 0;
  const rows = allMutations(ctx.db).filter((r) => r.state === 'pending' && mayBeLostCreate(r));
  for (const row of rows) {
    let lost: Awaited<ReturnType<typeof lookUpLostCreate>>;
    try {
      lost = await lookUpLostCreate(ctx, row);
    } catch {
      // Unreachable now: the row is sent (and looked up again) by the next push.
      continue;
    }
    // Adopted only while the row is still ours to settle (nothing took it meanwhile).
    if (!lost || !('found' in lost)) continue;
    if (getMutation(ctx.db, row.mutationId)?.state !== row.state) continue;
    adopt(row, lost.found, lost.path);
    adopted++;
  }
  return adopted;
}

/** A lost write found on the server and taken as this one: into "Changes from sync". */
export const noteAdopted = (db: Sqlite, row: QueuedMutation, now: number): void => {
  const { kind, id } = parseEntityKey(row.entity);
  const what = kindSpec(row.kind).effect === 'create' ? 'Made' : 'Sent';
  recordChange(
    db,
    {
      kind: 'adopted',
      entity: `${kind}:${serverIdOf(db, kind, id) ?? id}`,
      message: `${what} while the connection dropped: found on the server and kept once.`,
    },
    now,
  );
};
