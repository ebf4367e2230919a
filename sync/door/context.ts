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
}

/** What a bridge method receives (parsed, defaults applied). */
export type Input<M extends BridgeMethod> = BridgeParsedInput<M>;

/** What a bridge method answers, before the host parses it with the method's output schema. */
export type Answer<M extends BridgeMethod> = z.input<BridgeContract[M]['output']>;
