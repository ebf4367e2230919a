/**
 * The model's rules on small logs: what the server must hold after the user's and the second
 * writer's edits, with the ambiguities the service's single modification time and whole-entity
 * updates allow, and nothing more.
 */
import { describe, expect, it } from 'vitest';
import { Model } from './model';

const seeded = () => {
  const m = new Model();
  m.apply({
    type: 'seed-task',
    key: 't',
    org: 0,
    id: 10,
    fields: { title: 'T', priority: 'None', status: 'To Do' },
  });
  m.apply({
    type: 'seed-item',
    key: 'c',
    org: 0,
    id: 20,
    task: 't',
    fields: { name: 'C', completed: false },
  });
  return m;
};

const accepted = (m: Model, key: string, field: string) => {
  const e = m.expectations().entities.find((x) => x.key === key);
  return e?.fields[field as 'title']?.accept;
};

describe('model: last write as the user left it (rule 1)', () => {
  it("holds the user's last value, never an earlier one", () => {
    const m = seeded();
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 100 });
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'High', at: 200 });
    m.apply({ type: 'set', key: 'c', field: 'completed', value: true, at: 300 });
    m.apply({ type: 'set', key: 'c', field: 'completed', value: false, at: 400 });
    expect(accepted(m, 't', 'priority')).toEqual(['High']);
    expect(accepted(m, 'c', 'completed')).toEqual([false]);
  });

  it("takes the writer's change made after the user's set", () => {
    const m = seeded();
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 100 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'priority',
      value: 'Urgent',
      before: 'Low',
      at: 200,
      unsent: false,
    });
    expect(accepted(m, 't', 'priority')).toEqual(['Urgent']);
  });

  it("accepts the writer's earlier change too when the user's own checklist edit moved the task's time", () => {
    const m = seeded();
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'Theirs',
      before: 'T',
      at: 100,
      unsent: false,
    });
    m.apply({ type: 'set', key: 't', field: 'title', value: 'Mine', at: 200 });
    expect(accepted(m, 't', 'title')).toEqual(['Mine']);
    // Its commit, at a moment the model cannot know, touches the task (server: touchTask).
    m.apply({ type: 'set', key: 'c', field: 'completed', value: true, at: 150 });
    expect(accepted(m, 't', 'title')).toEqual(['Mine', 'Theirs']);
  });

  it("holds the user's value once the user's own checklist edit had reached the server before the set", () => {
    const m = seeded();
    m.apply({ type: 'set', key: 'c', field: 'completed', value: true, at: 50 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'Theirs',
      before: 'T',
      at: 100,
      unsent: false,
    });
    // Nothing unsent at 150: the checklist edit moved the task's time before the set.
    m.apply({ type: 'quiet', at: 150 });
    m.apply({ type: 'set', key: 't', field: 'title', value: 'Mine', at: 200 });
    expect(accepted(m, 't', 'title')).toEqual(['Mine']);
    // A checklist edit after the set reaches the server after it: the documented limit.
    m.apply({ type: 'set', key: 'c', field: 'completed', value: false, at: 250 });
    expect(accepted(m, 't', 'title')).toEqual(['Mine', 'Theirs']);
  });

  it("holds the user's value over a writer's change the app had pulled before the set", () => {
    const m = seeded();
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'Theirs',
      before: 'T',
      at: 100,
      unsent: false,
    });
    m.apply({ type: 'pulled', from: 120, at: 150 });
    m.apply({ type: 'set', key: 't', field: 'title', value: 'Mine', at: 200 });
    m.apply({ type: 'set', key: 'c', field: 'completed', value: true, at: 250 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'priority',
      value: 'Urgent',
      before: 'None',
      at: 300,
      unsent: false,
    });
    expect(accepted(m, 't', 'title')).toEqual(['Mine']);
  });

  it("keeps the user's set made after the writer's change", () => {
    const m = seeded();
    m.apply({
      type: 'write',
      key: 't',
      field: 'priority',
      value: 'Urgent',
      before: 'None',
      at: 100,
      unsent: false,
    });
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 200 });
    expect(accepted(m, 't', 'priority')).toEqual(['Low']);
  });

  it("accepts the writer's earlier change when the writer changed the entity after the set", () => {
    const m = seeded();
    m.apply({
      type: 'write',
      key: 't',
      field: 'priority',
      value: 'Urgent',
      before: 'None',
      at: 100,
      unsent: false,
    });
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 200 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'o1',
      before: 'T',
      at: 300,
      unsent: false,
    });
    expect(accepted(m, 't', 'priority')).toEqual(['Low', 'Urgent']);
  });

  it("counts a writer's change of a task's item as a change of the task (one modification time)", () => {
    const m = seeded();
    m.apply({
      type: 'write',
      key: 't',
      field: 'status',
      value: 'In Review',
      before: 'To Do',
      at: 100,
      unsent: false,
    });
    m.apply({ type: 'set', key: 't', field: 'status', value: 'In Progress', at: 200 });
    m.apply({
      type: 'write',
      key: 'c',
      field: 'name',
      value: 'oc1',
      before: 'C',
      at: 300,
      unsent: false,
    });
    expect(accepted(m, 't', 'status')).toEqual(['In Progress', 'In Review']);
    // The item's own fields are not touched by the task's writes.
    m.apply({ type: 'set', key: 'c', field: 'completed', value: true, at: 400 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'o2',
      before: 'T',
      at: 500,
      unsent: false,
    });
    expect(accepted(m, 'c', 'completed')).toEqual([true]);
  });

  it('ignores a write of the value already there', () => {
    const m = seeded();
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 100 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'priority',
      value: 'Low',
      before: 'Low',
      at: 200,
      unsent: false,
    });
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'High', at: 300 });
    expect(accepted(m, 't', 'priority')).toEqual(['High']);
  });
});

describe('model: fields the writer holds (rule 2)', () => {
  it('holds the initial value when nobody wrote the field', () => {
    expect(accepted(seeded(), 't', 'title')).toEqual(['T']);
  });

  it("holds the writer's last value, and no earlier one while no user edit could carry it", () => {
    const m = seeded();
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'o1',
      before: 'T',
      at: 100,
      unsent: false,
    });
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'o2',
      before: 'o1',
      at: 200,
      unsent: false,
    });
    expect(accepted(m, 't', 'title')).toEqual(['o2']);
  });

  it('accepts the value before a write that a user edit of the entity followed', () => {
    const m = seeded();
    m.apply({
      type: 'write',
      key: 't',
      field: 'title',
      value: 'o1',
      before: 'T',
      at: 100,
      unsent: false,
    });
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 200 });
    expect(accepted(m, 't', 'title')).toEqual(['o1', 'T']);
  });

  it('accepts the value before a write made while a user edit was unsent', () => {
    const m = seeded();
    m.apply({ type: 'set', key: 'c', field: 'completed', value: true, at: 50 });
    m.apply({
      type: 'write',
      key: 'c',
      field: 'name',
      value: 'oc1',
      before: 'C',
      at: 100,
      unsent: true,
    });
    expect(accepted(m, 'c', 'name')).toEqual(['oc1', 'C']);
    // Not the user's own earlier value of a field the user set after the write.
    m.apply({ type: 'set', key: 'c', field: 'completed', value: false, at: 200 });
    expect(accepted(m, 'c', 'completed')).toEqual([false]);
  });

  it("accepts the user's value when the user's edit was unsent at the writer's change", () => {
    const m = seeded();
    m.apply({ type: 'set', key: 't', field: 'status', value: 'In Progress', at: 100 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'status',
      value: 'In Review',
      before: 'To Do',
      at: 200,
      unsent: true,
    });
    expect(accepted(m, 't', 'status')).toEqual(['In Review', 'To Do', 'In Progress']);
  });

  it("never accepts the user's previous value once the user set the field again", () => {
    const m = seeded();
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 100 });
    m.apply({
      type: 'write',
      key: 't',
      field: 'priority',
      value: 'Urgent',
      before: 'Low',
      at: 200,
      unsent: true,
    });
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'High', at: 300 });
    expect(accepted(m, 't', 'priority')).toEqual(['High']);
  });
});

describe('model: entities, timers and files', () => {
  it('a deleted task takes its items, files and timers with it', () => {
    const m = seeded();
    m.apply({
      type: 'upload',
      key: 'f',
      org: 0,
      id: -1,
      task: 't',
      at: 10,
      name: 'f.txt',
      size: 3,
      bytes: 'YWJj',
    });
    m.apply({ type: 'timer-start', key: 'm', org: 0, id: -2, task: 't', at: 20 });
    m.apply({ type: 'delete', key: 't', at: 30 });
    const x = m.expectations();
    expect(x.entities.map((e) => [e.key, e.alive])).toEqual([
      ['t', false],
      ['c', false],
    ]);
    expect(x.uploads[0]?.alive).toBe(false);
    expect(x.timers[0]?.alive).toBe(false);
    expect(m.activeTimer(0)).toBeUndefined();
  });

  it('a timer counts the whole seconds it ran, in server time', () => {
    const m = seeded();
    m.setServerOffset(-60_000);
    m.apply({ type: 'timer-start', key: 'm', org: 0, id: -1, task: 't', at: 1_000 });
    m.apply({ type: 'timer-move', key: 'm', move: 'pause', at: 3_500 });
    m.apply({ type: 'timer-move', key: 'm', move: 'resume', at: 10_000 });
    m.apply({ type: 'timer-move', key: 'm', move: 'stop', at: 10_600 });
    expect(m.expectations().timers[0]).toMatchObject({
      state: 'STOPPED',
      durationSeconds: 3,
      startTime: 1_000 - 60_000,
      endTime: 10_600 - 60_000,
    });
  });

  it('a sleep counts in a running timer, not in a paused one', () => {
    const m = seeded();
    m.apply({ type: 'timer-start', key: 'm', org: 0, id: -1, task: 't', at: 1_000 });
    // Ten minutes asleep: the server's clock went on, real time here did not.
    m.setServerOffset(600_000);
    m.apply({ type: 'timer-move', key: 'm', move: 'pause', at: 3_500 });
    m.setServerOffset(1_200_000);
    m.apply({ type: 'timer-move', key: 'm', move: 'resume', at: 4_000 });
    m.apply({ type: 'timer-move', key: 'm', move: 'stop', at: 5_000 });
    expect(m.expectations().timers[0]).toMatchObject({
      durationSeconds: 603,
      startTime: 1_000,
      endTime: 1_205_000,
    });
  });

  it("a start stops the org's active timer at the same moment", () => {
    const m = seeded();
    m.apply({ type: 'timer-start', key: 'm1', org: 0, id: -1, task: 't', at: 1_000 });
    m.apply({ type: 'timer-move', key: 'm1', move: 'pause', at: 2_200 });
    m.apply({ type: 'timer-start', key: 'm2', org: 0, id: -2, task: 't', at: 5_000 });
    const [m1, m2] = m.expectations().timers;
    expect(m1).toMatchObject({ state: 'STOPPED', durationSeconds: 1, endTime: 5_000 });
    expect(m2).toMatchObject({ state: 'RUNNING', startTime: 5_000 });
    expect(m.activeTimer(0)?.key).toBe('m2');
    expect(m.activeTimer(1)).toBeUndefined();
  });

  it("the user's next value always differs from the user's last (or the initial)", () => {
    const m = seeded();
    expect(m.nextUserValue('t', 'priority')).toBe('Low');
    expect(m.nextUserValue('t', 'status')).toBe('In Progress');
    m.apply({ type: 'set', key: 't', field: 'priority', value: 'Low', at: 1 });
    expect(m.nextUserValue('t', 'priority')).toBe('High');
    expect(m.nextUserValue('c', 'completed')).toBe(true);
  });
});

describe('model: places, subtasks, time added by hand, undone deletes', () => {
  const places = () => {
    const m = seeded();
    m.apply({
      type: 'seed',
      kind: 'space',
      key: 'sp',
      org: 0,
      id: 1,
      within: null,
      fields: { name: 'S' },
    });
    m.apply({
      type: 'seed',
      kind: 'project',
      key: 'pj',
      org: 0,
      id: 2,
      within: 'sp',
      fields: { name: 'P' },
    });
    m.apply({
      type: 'create-task',
      key: 'pt',
      org: 0,
      id: -1,
      at: 10,
      fields: { title: 'PT' },
      within: 'pj',
    });
    m.apply({
      type: 'create-task',
      key: 'st',
      org: 0,
      id: -2,
      at: 20,
      fields: { title: 'ST' },
      within: 'pt',
    });
    return m;
  };
  const alive = (m: Model) =>
    Object.fromEntries(m.expectations().entities.map((e) => [e.key, e.alive]));

  it("a space's delete takes its projects, their tasks and subtasks", () => {
    const m = places();
    m.apply({ type: 'delete', key: 'sp', at: 30 });
    expect(alive(m)).toMatchObject({ sp: false, pj: false, pt: false, st: false, t: true });
  });

  it("a subtask's create and delete move its parent (rule 1's limit counts them)", () => {
    const m = places();
    m.apply({
      type: 'write',
      key: 'pt',
      field: 'title',
      value: 'Theirs',
      before: 'PT',
      at: 100,
      unsent: false,
    });
    // The subtask's create (at 20) had reached the server before the set.
    m.apply({ type: 'quiet', at: 150 });
    m.apply({ type: 'set', key: 'pt', field: 'title', value: 'Mine', at: 200 });
    expect(accepted(m, 'pt', 'title')).toEqual(['Mine']);
    m.apply({ type: 'delete', key: 'st', at: 300 });
    expect(accepted(m, 'pt', 'title')).toEqual(['Mine', 'Theirs']);
  });

  it('a delete undone before it was sent brings back what it took, the timer stopped', () => {
    const m = places();
    m.apply({ type: 'timer-start', key: 'm', org: 0, id: -3, task: 'st', at: 1_000 });
    m.apply({ type: 'delete', key: 'pt', at: 3_500 });
    expect(m.activeTimer(0)).toBeUndefined();
    m.apply({ type: 'undelete', key: 'pt', at: 4_000 });
    expect(alive(m)).toMatchObject({ pt: true, st: true });
    expect(m.expectations().timers[0]).toMatchObject({
      alive: true,
      state: 'STOPPED',
      durationSeconds: 2,
    });
  });

  it('time added whole is a block at the start the user gave; a correction makes a new one', () => {
    const m = seeded();
    // The server's clock does not move a start the user gave.
    m.setServerOffset(-60_000);
    m.apply({
      type: 'timer-add',
      key: 'r',
      org: 0,
      id: -1,
      task: 't',
      at: 50,
      block: { startTime: 1_000_000, durationSeconds: 90 },
      notes: null,
      billing: 'BILLABLE',
    });
    expect(m.expectations().timers[0]).toMatchObject({
      state: 'STOPPED',
      exact: true,
      startTime: 1_000_000,
      endTime: 1_090_000,
    });
    m.apply({ type: 'timer-fix', key: 'r', block: { durationSeconds: 30 }, at: 60 });
    expect(m.expectations().timers[0]).toMatchObject({ durationSeconds: 30, endTime: 1_030_000 });
    m.apply({ type: 'delete', key: 'r', at: 70 });
    expect(m.expectations().timers[0]?.alive).toBe(false);
  });
  it('a correction undone leaves the entry as it was, not a block of the values set back', () => {
    const m = seeded();
    m.apply({ type: 'timer-start', key: 'm', org: 0, id: -1, task: 't', at: 1_000 });
    m.apply({ type: 'timer-move', key: 'm', move: 'stop', at: 1_009 });
    m.apply({ type: 'timer-fix', key: 'm', block: { startTime: 5_000 }, at: 1_020 });
    expect(m.expectations().timers[0]).toMatchObject({ block: true, startTime: 5_000 });
    // Sent or dropped unsent, the record is the plain one it was: ended by its stop.
    m.apply({ type: 'timer-fix', key: 'm', block: { startTime: 1_000 }, at: 1_030, undo: true });
    expect(m.expectations().timers[0]).toMatchObject({
      block: false,
      startTime: 1_000,
      endTime: 1_009,
      durationSeconds: 0,
    });
    // An undo that sets back other values than the old ones is the engine's mistake.
    m.apply({ type: 'timer-fix', key: 'm', block: { durationSeconds: 40 }, at: 1_040 });
    expect(() =>
      m.apply({
        type: 'timer-fix',
        key: 'm',
        block: { durationSeconds: 7 },
        at: 1_050,
        undo: true,
      }),
    ).toThrow(/set 7 s, was 0 s/);
  });
});
