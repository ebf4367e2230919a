import { useEffect, useRef } from 'react';

/**
 * Every shortcut of the app in one table, so the help sheet can never miss one. Combos use
 * "Mod" for Ctrl (Cmd on macOS); a two-key sequence is written "g i".
 */
export const shortcuts = {
  palette: { combo: 'Mod+k', label: 'Command palette', group: 'General' },
  help: { combo: '?', label: 'Keyboard shortcuts', group: 'General' },
  search: { combo: '/', label: 'Search tasks', group: 'General' },
  // Not in a text field: there the field's own text undo applies.
  undo: { combo: 'Mod+z', label: 'Undo the last change', group: 'General', fields: false },
  redo: { combo: 'Mod+Shift+z', label: 'Redo', group: 'General', fields: false },
  newTask: { combo: 'c', label: 'New task', group: 'Tasks' },
  next: { combo: 'j', label: 'Next row', group: 'Lists' },
  prev: { combo: 'k', label: 'Previous row', group: 'Lists' },
  open: { combo: 'Enter', label: 'Open the selected task', group: 'Lists' },
  close: { combo: 'Escape', label: 'Close the detail or dialog', group: 'Lists' },
  complete: { combo: 'x', label: 'Complete / reopen the selected task', group: 'Tasks' },
  toggleItem: { combo: 'Space', label: 'Toggle the focused checklist item', group: 'Tasks' },
  timer: { combo: 't', label: 'Start / stop the timer on the task', group: 'Tasks' },
  goMy: { combo: 'g m', label: 'Go to My tasks', group: 'Navigation' },
  goInbox: { combo: 'g i', label: 'Go to Inbox', group: 'Navigation' },
  goTimesheet: { combo: 'g t', label: 'Go to Timesheet', group: 'Navigation' },
  goSync: { combo: 'g s', label: 'Go to Sync', group: 'Navigation' },
  goPersonal: { combo: 'g p', label: 'Go to Personal tasks', group: 'Navigation' },
  goSpaces: { combo: 'g o', label: 'Go to Spaces', group: 'Navigation' },
  goSettings: { combo: 'g ,', label: 'Go to Settings', group: 'Navigation' },
} as const;
export type ShortcutId = keyof typeof shortcuts;

/** Shortcuts the key handler does not own (the board's), shown beside the table's. */
const otherShortcuts = [
  { label: 'Move the focused card to the next column', combo: 'Alt+← / Alt+→', group: 'Board' },
  { label: 'Pick up the focused card, or drop it', combo: 'Space', group: 'Board' },
  { label: 'Carry a picked-up card to another column', combo: '← / →', group: 'Board' },
  { label: 'Put a picked-up card back', combo: 'Escape', group: 'Board' },
] as const;

export interface ShortcutGroup {
  group: string;
  list: { label: string; combo: string }[];
}

/** Every shortcut by group, in the table's order: what the help sheet and Settings list. */
export const shortcutGroups = (): ShortcutGroup[] => {
  const groups = new Map<string, ShortcutGroup['list']>();
  for (const s of [...Object.values(shortcuts), ...otherShortcuts])
    groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  return [...groups].map(([group, list]) => ({ group, list }));
};

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** "Mod+k" as the user's keyboard says it. */
export const showCombo = (combo: string) =>
  combo
    .split(' ')
    .map((part) =>
      part
        .split('+')
        .map((k) => (k === 'Mod' ? (isMac ? '⌘' : 'Ctrl') : k.length === 1 ? k.toUpperCase() : k))
        .join(isMac ? '' : '+'),
    )
    .join(' then ');

/** True when typing would go into a field: single-key shortcuts must not fire there. */
const isTyping = (t: EventTarget | null) => {
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName);
};

const keyName = (e: KeyboardEvent) => (e.key === ' ' ? 'Space' : e.key);

const matchesStep = (step: string, e: KeyboardEvent) => {
  const parts = step.split('+');
  const key = parts[parts.length - 1] ?? '';
  const mod = parts.includes('Mod');
  const hasMod = isMac ? e.metaKey : e.ctrlKey;
  if (mod !== hasMod) return false;
  // With Mod, Shift is part of the combo (Mod+z undoes, Mod+Shift+z redoes); a lone key's
  // Shift is how its character is typed ("?").
  if (mod && parts.includes('Shift') !== e.shiftKey) return false;
  if (!mod && (e.ctrlKey || e.metaKey || e.altKey)) return false;
  const name = keyName(e);
  return name === key || name.toLowerCase() === key.toLowerCase();
};

type Handler = (e: KeyboardEvent) => void;
const bindings = new Map<ShortcutId, Handler[]>();
let pending: { first: string; at: number } | null = null;
let installed = false;

function onKey(e: KeyboardEvent) {
  if (e.defaultPrevented) return;
  const typing = isTyping(e.target);
  for (const [id, handlers] of bindings) {
    const handler = handlers[handlers.length - 1];
    if (!handler) continue;
    const shortcut: { combo: string; fields?: boolean } = shortcuts[id];
    const { combo } = shortcut;
    const steps = combo.split(' ');
    const withMod = combo.includes('Mod+') || combo === 'Escape';
    if (typing && (!withMod || shortcut.fields === false)) continue;
    if (steps.length === 2) {
      const [first = '', second = ''] = steps;
      if (pending && pending.first === first && Date.now() - pending.at < 1200) {
        if (matchesStep(second, e)) {
          pending = null;
          e.preventDefault();
          handler(e);
          return;
        }
      }
      continue;
    }
    if (matchesStep(combo, e)) {
      e.preventDefault();
      handler(e);
      pending = null;
      return;
    }
  }
  // The first key of a sequence ("g") arms it when no single-key shortcut took the key.
  if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey && keyName(e) === 'g') {
    pending = { first: 'g', at: Date.now() };
  }
}

/**
 * Binds a shortcut while the component is mounted. The latest binding of an id wins, so a
 * dialog can take Escape from the view below it and give it back on unmount.
 */
export function useShortcut(id: ShortcutId, handler: Handler, enabled = true) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!enabled) return;
    if (!installed && typeof window !== 'undefined') {
      window.addEventListener('keydown', onKey);
      installed = true;
    }
    const h: Handler = (e) => ref.current(e);
    const list = bindings.get(id) ?? [];
    list.push(h);
    bindings.set(id, list);
    return () => {
      const l = bindings.get(id) ?? [];
      bindings.set(
        id,
        l.filter((x) => x !== h),
      );
    };
  }, [id, enabled]);
}
