import type { z } from 'zod';
import type { BridgeContract, BridgeMethod, BridgeParsedInput } from '../../shared/bridge';
import type { Sqlite } from '../db/open';
import type { SyncEngine } from '../engine/engine-api';

/** What a view needs: the current org's replica, who is signed in, and one clock reading. */
export interface ViewContext {
  db: Sqlite;
  userId: number;
  now: number;
  engine: SyncEngine;
  /** The replica's own folder (cached attachments, staged upload copies). */
  filesDir: string;
  /** Where the UI can fetch an attachment's content (browser mode); null: it opens the path. */
  attachmentUrl: ((attachmentId: number) => string) | null;
}

/** What a bridge method receives (parsed, defaults applied). */
export type Input<M extends BridgeMethod> = BridgeParsedInput<M>;

/** What a bridge method answers, before the host parses it with the method's output schema. */
export type Answer<M extends BridgeMethod> = z.input<BridgeContract[M]['output']>;

/** How the engine answers one bridge method: from the view context and the parsed input. */
export type View<M extends BridgeMethod> = (
  ctx: ViewContext,
  input: Input<M>,
) => Answer<M> | Promise<Answer<M>>;

/** A table of bridge methods the engine answers, each under its contract name. */
export type Views<K extends BridgeMethod = BridgeMethod> = { [M in K]: View<M> };

/** The same methods as the host calls them: input in, answer out. */
export type Calls<K extends BridgeMethod> = {
  [M in K]: (input: Input<M>) => Answer<M> | Promise<Answer<M>>;
};

/** One function per name, each handing its method and input to `call`. */
export const callsOf = <K extends BridgeMethod>(
  names: readonly K[],
  call: <M extends K>(method: M, input: Input<M>) => Answer<M> | Promise<Answer<M>>,
): Calls<K> =>
  // fromEntries loses the pairing of each name with its own input type; `call` keeps it.
  Object.fromEntries(names.map((m) => [m, (input: Input<typeof m>) => call(m, input)])) as Calls<K>;
