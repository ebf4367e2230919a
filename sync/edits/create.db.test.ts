import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allMutations } from '../outbox';
import { createEdits } from './create';
import { entityModules } from './kinds';
import type { EditTx, EntityModules } from './kinds/types';
import { type EditFixture, editFixture } from './test-support';

/** The machinery takes the modules it is given: a test can hand it a made-up one. */
describe('createEdits', () => {
  let f: EditFixture;
  beforeEach(() => {
    f = editFixture();
  });
  afterEach(() => f.close());

  it("runs the given module's apply with an edit transaction, and its effect", () => {
    const seen: string[] = [];
    const { task } = entityModules;
    const create = task.kinds['task.create'];
    const modules: EntityModules = {
      ...entityModules,
      task: {
        ...task,
        kinds: {
          ...task.kinds,
          'task.create': {
            apply: (tx: EditTx, c) => {
              seen.push(`apply at ${tx.ctx.now}`);
              return create.apply(tx, c);
            },
            effect: (db, e) => {
              seen.push(`effect on ${e.id}`);
              return create.effect(db, e);
            },
          },
        },
      },
    };
    const r = createEdits(modules).applyEdit(
      f.db,
      { kind: 'task.create', fields: { taskTitle: 'Made up' } },
      f.ctx,
    );
    expect(seen).toEqual([`apply at ${f.ctx.now}`, `effect on ${r.id}`]);
    expect(allMutations(f.db).map((m) => m.kind)).toEqual(['task.create']);
  });
});
