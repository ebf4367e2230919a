/**
 * The registry of edit modules: one per entity kind. To add an edit kind, add it to its
 * entity's module (or a new module here), its command to shared/edits/commands.ts and its
 * outbox spec to shared/edits/kinds.ts; the types make each of those places required.
 */
import type { EditKind } from '../../../shared/edits/commands';
import { type EntityKind, kindSpec, type MutationKind } from '../../outbox';
import { attachment } from './attachment';
import { checklist } from './checklist';
import { notification } from './notification';
import { project } from './project';
import { space } from './space';
import { task } from './task';
import { timer } from './timer';
import type { Apply, Effect, EntityModule } from './types';

type Modules = { [E in EntityKind]: EntityModule<E> };

let registry: Modules | undefined;

/**
 * Built on first use, not at load: the modules import the edit machinery (commit.ts), which
 * reads this registry, so whichever of them loads first must not find it half made.
 */
const modules = (): Modules => {
  registry ??= { task, checklist, attachment, timer, project, space, notification };
  return registry;
};

export const entityModule = <E extends EntityKind>(entity: E): EntityModule<E> => modules()[entity];

export const allEntityModules = (): [EntityKind, EntityModule<EntityKind>][] =>
  Object.entries(modules()) as [EntityKind, EntityModule<EntityKind>][];

const kindOf = (kind: MutationKind) =>
  (entityModule(kindSpec(kind).entity).kinds as Record<string, { apply: unknown; effect: Effect }>)[
    kind
  ] as { apply: unknown; effect: Effect };

/** The command handler of an edit kind. */
export const applyOf = <K extends EditKind>(kind: K): Apply<K> => kindOf(kind).apply as Apply<K>;

/** The local effect of a row of an edit kind. */
export const effectOf = (kind: MutationKind): Effect => kindOf(kind).effect;

export type { CreatePlan, EditContext, EffectRow, EntityModule } from './types';
