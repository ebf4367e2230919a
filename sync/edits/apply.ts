/**
 * `applyEdit`: a user's edit, applied to the replica at once and queued for the server, in one
 * SQLite transaction. The command is checked first (a bad one throws and changes nothing);
 * its entity's module (kinds/) turns it into the request and the local write: what the API
 * needs (a subtask's parent, a project task's space, the item's task) comes from the replica;
 * updates send the complete state (the patch over the current row).
 */
import { z } from 'zod';
import { type EditResult, editCommand } from '../../shared/edits/commands';
import { durably, type Sqlite } from '../db/open';
import { editTx } from './commit';
import { kindOf } from './effects';
import type { EditContext, EntityModules } from './kinds/types';
import { EditError, noteLocalUser } from './state';

export type { EditContext } from './kinds/types';

/**
 * Applies an edit locally and queues it. Throws `EditError` (nothing written) when the
 * command is malformed, names something the replica does not hold, or breaks a rule the
 * client can check (upload rules, timer states, the request schema).
 */
export const applyEdit = (
  modules: EntityModules,
  db: Sqlite,
  command: unknown,
  ctx: EditContext,
): EditResult => {
  const parsed = editCommand.safeParse(command);
  if (!parsed.success)
    throw new EditError(`invalid edit: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  const c = parsed.data;
  const run = () => {
    noteLocalUser(db, ctx.userId);
    return kindOf(modules, c.kind).apply(editTx(modules, db, ctx), c as never);
  };
  return durably(db, run);
};
