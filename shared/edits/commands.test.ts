import { describe, expect, it } from 'vitest';
import { editCommand } from './commands';

describe('edit commands', () => {
  it('refuse a key they do not know, instead of dropping it', () => {
    expect(editCommand.safeParse({ kind: 'task.delete', taskId: 5 }).success).toBe(true);
    const extra = editCommand.safeParse({ kind: 'task.delete', taskId: 5, cascade: false });
    expect(extra.success).toBe(false);
    expect(extra.error?.issues[0]?.code).toBe('unrecognized_keys');
  });
});
