/**
 * The edit modules: one per entity kind, what `createEdits` (../create.ts) builds the machinery
 * from. To add an edit kind, add it to its entity's module (or a new module here), its command
 * to shared/edits/commands.ts and its outbox spec to shared/edits/kinds.ts; the types make each
 * of those places required.
 */
import { attachment } from './attachment';
import { checklist } from './checklist';
import { notification } from './notification';
import { project } from './project';
import { space } from './space';
import { task } from './task';
import { timer } from './timer';
import type { EntityModules } from './types';

export const entityModules: EntityModules = {
  task,
  checklist,
  attachment,
  timer,
  project,
  space,
  notification,
};

export type {
  CreatePlan,
  EditContext,
  EditTx,
  EffectRow,
  EntityModule,
  EntityModules,
} from './types';
