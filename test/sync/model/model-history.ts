/**
 * The model's own undo history: the user's steps as the model knows them, one stack pair per
 * org (the engine keeps its history in each org's replica). Every edit the engine applied
 * is a step (the model never sends one that changes nothing); a new step drops the redo
 * stack. From it the model predicts which step an undo or a redo takes, and what it touches.
 */
import type { EditKind } from '../../../shared/edits/commands';
import type { Value } from './field-rules';
import type { TimerMove } from './model-timers';
import type { ModelEvent } from './model-types';

/** Events that make something: a redo makes it again from this (new key, id and time). */
export type MakeEvent = Extract<
  ModelEvent,
  { type: 'create-task' | 'create' | 'create-item' | 'upload' | 'timer-start' | 'timer-add' }
>;

/** What a field may have held before a set: one of `values`, or a time within reach of `near`. */
export interface Prior {
  values: Value[];
  near?: number;
}

export type StepEntry =
  /**
   * Fields set, by the model's names (a timer's: notes, billing, startTime, durationSeconds),
   * with what each may have held before (what an undo sets back).
   */
  | { t: 'set'; key: string; values: Record<string, Value>; prior: Record<string, Prior> }
  /** `key`: what the create made, or its last redo (the engine's step names its id). */
  | { t: 'create'; key: string; make: MakeEvent }
  | { t: 'delete'; key: string; at: number }
  | { t: 'move'; key: string; move: TimerMove };

export interface UserStep {
  /** The edit kind the engine names the step by (its first edit's). */
  kind: EditKind;
  entry: StepEntry;
}

export class UserSteps {
  private readonly done: UserStep[][] = [[], []];
  private readonly undone: UserStep[][] = [[], []];
  /** Entities made again (a redone create, a recreated delete): key → the key now. */
  private readonly moved = new Map<string, string>();

  push(org: number, step: UserStep): void {
    this.stack(this.done, org).push(step);
    this.stack(this.undone, org).length = 0;
  }

  /** The step an undo takes (the latest not undone), moved to the redo stack. */
  undo(org: number): UserStep | undefined {
    const step = this.stack(this.done, org).pop();
    if (step) this.stack(this.undone, org).push(step);
    return step;
  }

  /** The step a redo takes (the one undone last), moved back to the undo stack. */
  redo(org: number): UserStep | undefined {
    const step = this.stack(this.undone, org).pop();
    if (step) this.stack(this.done, org).push(step);
    return step;
  }

  /** The entity `key` was made again as `to`: the steps that name `key` lead to `to`. */
  noteMoved(key: string, to: string): void {
    this.moved.set(key, to);
  }

  /** The key the entity a step named has now. */
  resolve(key: string): string {
    let now = key;
    for (let i = 0; i < 64; i++) {
      const next = this.moved.get(now);
      if (next === undefined) return now;
      now = next;
    }
    return now;
  }

  depth(org: number): { undo: number; redo: number } {
    return { undo: this.stack(this.done, org).length, redo: this.stack(this.undone, org).length };
  }

  private stack(s: UserStep[][], org: number): UserStep[] {
    const x = s[org];
    if (!x) throw new Error(`no org ${org}`);
    return x;
  }
}
