import { describe, expect, it } from 'vitest';
import type { TrayAction } from './tray-menu';
import { menuTemplate } from './tray-template';

describe('menuTemplate', () => {
  it('maps labels, separators, submenus and actions; a click hands back the action', () => {
    const clicked: TrayAction[] = [];
    const t = menuTemplate(
      [
        { type: 'label', label: '▶ Notes' },
        { type: 'separator' },
        {
          type: 'submenu',
          label: 'Switch task',
          items: [
            { type: 'action', label: 'B', action: { kind: 'switch', trackId: 1, taskId: 2 } },
          ],
        },
        { type: 'action', label: 'Quit', action: { kind: 'quit' } },
      ],
      (a) => clicked.push(a),
    );
    expect(t.map((i) => [i.type ?? 'normal', i.label, i.enabled])).toEqual([
      ['normal', '▶ Notes', false],
      ['separator', undefined, undefined],
      ['normal', 'Switch task', undefined],
      ['normal', 'Quit', undefined],
    ]);
    const sub = t[2]?.submenu as { click?: () => void }[];
    sub[0]?.click?.();
    (t[3]?.click as (() => void) | undefined)?.();
    expect(clicked).toEqual([{ kind: 'switch', trackId: 1, taskId: 2 }, { kind: 'quit' }]);
  });
});
