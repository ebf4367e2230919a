/** The edit, undo and redo, and the sync controls: each control answers the status after it. */
import type { SyncEngine } from '../engine/engine-api';
import type { Json } from '../outbox/types';
import type { ViewContext, Views } from './context';
import { statusView } from './status';

const statusAfter = (ctx: ViewContext, act: (engine: SyncEngine) => void) => {
  act(ctx.engine);
  return statusView(ctx.engine.status());
};

export const controlViews = {
  'edits.apply': (ctx, command) => ctx.engine.edit(command),
  /** Several edits as one undoable step, all or none. */
  'edits.applyAll': (ctx, input) => ({ count: ctx.engine.editAll(input.commands).length }),
  'history.undo': (ctx) => ctx.engine.undo(),
  'history.redo': (ctx) => ctx.engine.redo(),

  'sync.status': (ctx) => statusView(ctx.engine.status()),
  'sync.now': async (ctx) => {
    await ctx.engine.syncNow();
    return statusView(ctx.engine.status());
  },
  'sync.pause': (ctx) => statusAfter(ctx, (e) => e.pause()),
  'sync.resume': (ctx) => statusAfter(ctx, (e) => e.resume()),
  'sync.retry': (ctx, input) =>
    statusAfter(ctx, (e) => e.retry(input.mutationId, input.body as Json | undefined)),
  'sync.discard': (ctx, input) => statusAfter(ctx, (e) => e.discard(input.mutationId)),
  'sync.resolveConflict': (ctx, input) =>
    statusAfter(ctx, (e) => e.resolveConflict(input.mutationId, input.choice)),
  'sync.dismissNotice': (ctx, input) => statusAfter(ctx, (e) => e.dismissNotice(input.noticeId)),
  /** Stops the first fill; paused first, so the restart after the stop begins no other pull. */
  'sync.cancelBootstrap': async (ctx) => {
    ctx.engine.pause();
    await ctx.engine.stop();
    ctx.engine.start();
    return statusView(ctx.engine.status());
  },
} satisfies Partial<Views>;
