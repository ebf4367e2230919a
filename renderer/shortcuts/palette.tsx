import { useEffect, useMemo, useRef, useState } from 'react';
import { type Route, useApp } from '../data/app-store';
import { bridge } from '../data/bridge';
import { useQuery } from '../data/query';
import { useFocusTrap } from '../ui/focus-trap';
import { shortcuts, showCombo } from './keys';

interface Command {
  id: string;
  label: string;
  hint?: string;
  group: string;
  run: () => void;
}

const go = (r: Route) => () => useApp.getState().go(r);

/** Ctrl/Cmd+K: jump anywhere, run any command, or find a task by its words (offline index). */
export function CommandPalette() {
  const open = useApp((s) => s.paletteOpen);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [hits, setHits] = useState<Command[]>([]);
  const ref = useRef<HTMLDivElement>(null);
  const tree = useQuery('spaces.nav', {}, open);
  useFocusTrap(ref, open);
  const close = () => useApp.setState({ paletteOpen: false });

  const commands = useMemo<Command[]>(() => {
    const base: Command[] = [
      {
        id: 'new',
        label: 'New task',
        hint: showCombo(shortcuts.newTask.combo),
        group: 'Commands',
        run: () => useApp.setState({ newTaskOpen: true }),
      },
      {
        id: 'sync-now',
        label: 'Sync now',
        group: 'Commands',
        run: () => void bridge().invoke('sync.now', {}),
      },
      {
        id: 'help',
        label: 'Keyboard shortcuts',
        hint: '?',
        group: 'Commands',
        run: () => useApp.setState({ helpOpen: true }),
      },
      {
        id: 'my',
        label: 'My tasks',
        hint: showCombo(shortcuts.goMy.combo),
        group: 'Go to',
        run: go({ view: 'my' }),
      },
      {
        id: 'inbox',
        label: 'Inbox',
        hint: showCombo(shortcuts.goInbox.combo),
        group: 'Go to',
        run: go({ view: 'inbox' }),
      },
      {
        id: 'personal',
        label: 'Personal tasks',
        hint: showCombo(shortcuts.goPersonal.combo),
        group: 'Go to',
        run: go({ view: 'personal' }),
      },
      {
        id: 'timesheet',
        label: 'Timesheet',
        hint: showCombo(shortcuts.goTimesheet.combo),
        group: 'Go to',
        run: go({ view: 'timesheet' }),
      },
      {
        id: 'sync',
        label: 'Sync',
        hint: showCombo(shortcuts.goSync.combo),
        group: 'Go to',
        run: go({ view: 'sync' }),
      },
      {
        id: 'spaces',
        label: 'Spaces and projects',
        group: 'Go to',
        run: go({ view: 'spaces' }),
      },
      {
        id: 'theme-light',
        label: 'Theme: light',
        group: 'Settings',
        run: () => void setTheme('light'),
      },
      {
        id: 'theme-dark',
        label: 'Theme: dark',
        group: 'Settings',
        run: () => void setTheme('dark'),
      },
      {
        id: 'theme-system',
        label: 'Theme: follow the system',
        group: 'Settings',
        run: () => void setTheme('system'),
      },
    ];
    for (const s of tree.data?.spaces ?? [])
      for (const p of s.projects)
        base.push({
          id: `p${p.projectId}`,
          label: `${p.projectName}`,
          hint: s.spaceName,
          group: 'Projects',
          run: go({ view: 'project', projectId: p.projectId, mode: 'list' }),
        });
    return base;
  }, [tree.data]);

  useEffect(() => {
    if (!open) {
      setText('');
      setHits([]);
      return;
    }
    const q = text.trim();
    if (q.length < 2) {
      setHits([]);
      return;
    }
    let live = true;
    const t = setTimeout(async () => {
      try {
        const res = await bridge().invoke('tasks.search', { text: q, limit: 8 });
        if (live)
          setHits(
            res.hits.map((h) => ({
              id: `t${h.taskId}`,
              label: h.title,
              hint: h.projectName ?? 'Personal',
              group: 'Tasks',
              run: () => useApp.getState().openTask(h.taskId),
            })),
          );
      } catch {
        if (live) setHits([]);
      }
    }, 80);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [text, open]);

  if (!open) return null;
  const words = text.trim().toLowerCase();
  const shown = [
    // "go to inbox" finds Inbox: the group is part of what a command is called.
    ...commands.filter((c) => !words || `${c.group} ${c.label}`.toLowerCase().includes(words)),
    ...hits,
  ].slice(0, 40);
  if (words.length >= 2)
    shown.push({
      id: 'search',
      label: `Search all tasks for “${text.trim()}”`,
      group: 'Tasks',
      run: () => useApp.getState().go({ view: 'search', text: text.trim() }),
    });
  const pick = (c: Command | undefined) => {
    if (!c) return;
    close();
    c.run();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the palette closes it; Escape does too
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        ref={ref}
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
      >
        <input
          className="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[active] ? `pal-${shown[active].id}` : undefined}
          aria-label="Type a command or search tasks"
          placeholder="Type a command or search tasks…"
          value={text}
          data-autofocus
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(shown.length - 1, a + 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
            else if (e.key === 'Enter') pick(shown[active]);
            else if (e.key === 'Escape') close();
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        />
        <div id="palette-list" role="listbox" className="palette-list" aria-label="Results">
          {shown.length === 0 ? <div className="muted palette-empty">Nothing matches.</div> : null}
          {shown.map((c, i) => (
            <div
              key={c.id}
              id={`pal-${c.id}`}
              role="option"
              aria-selected={i === active}
              tabIndex={-1}
              className={`palette-item${i === active ? ' is-active' : ''}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(c)}
              onKeyDown={() => undefined}
            >
              <span className="palette-group">{c.group}</span>
              <span className="grow ellipsis">{c.label}</span>
              {c.hint ? <span className="muted">{c.hint}</span> : null}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

async function setTheme(theme: 'light' | 'dark' | 'system') {
  const settings = await bridge().invoke('settings.set', { theme });
  useApp.setState({ settings });
}
