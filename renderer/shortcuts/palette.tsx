import { Command as Cmdk } from 'cmdk';
import { useEffect, useMemo, useState } from 'react';
import { type Route, useApp } from '../data/app-store';
import { bridge } from '../data/bridge';
import { useQuery } from '../data/query';
import { Modal } from '../ui/dialog';
import { type ShortcutId, shortcuts, showCombo } from './keys';

interface Command {
  id: string;
  label: string;
  hint?: string;
  run: () => void;
}

interface Group {
  name: string;
  commands: Command[];
}

const go = (r: Route) => () => useApp.getState().go(r);

/** A view the `g …` keys also reach: the palette shows their keys beside it. */
const goTo = (id: string, label: string, key: ShortcutId, route: Route): Command => ({
  id,
  label,
  hint: showCombo(shortcuts[key].combo),
  run: go(route),
});

const projectCount = (n: number) => (n === 1 ? '1 project' : `${n} projects`);

async function setTheme(theme: 'light' | 'dark' | 'system') {
  const settings = await bridge().invoke('settings.set', { theme });
  useApp.setState({ settings });
}

/** What the palette offers before any typing: one group per kind of command. */
function baseGroups(spaces: Command[], projects: Command[]): Group[] {
  return [
    {
      name: 'Commands',
      commands: [
        {
          id: 'new',
          label: 'New task',
          hint: showCombo(shortcuts.newTask.combo),
          run: () => useApp.setState({ newTaskOpen: true }),
        },
        { id: 'sync-now', label: 'Sync now', run: () => void bridge().invoke('sync.now', {}) },
        {
          id: 'help',
          label: 'Keyboard shortcuts',
          hint: showCombo(shortcuts.help.combo),
          run: () => useApp.setState({ helpOpen: true }),
        },
      ],
    },
    {
      name: 'Go to',
      commands: [
        goTo('my', 'My tasks', 'goMy', { view: 'my' }),
        goTo('inbox', 'Inbox', 'goInbox', { view: 'inbox' }),
        goTo('personal', 'Personal tasks', 'goPersonal', { view: 'personal' }),
        goTo('timesheet', 'Timesheet', 'goTimesheet', { view: 'timesheet' }),
        goTo('sync', 'Sync', 'goSync', { view: 'sync' }),
        goTo('spaces', 'Spaces', 'goSpaces', { view: 'spaces' }),
        goTo('settings', 'Settings', 'goSettings', { view: 'settings' }),
      ],
    },
    {
      name: 'Theme',
      commands: [
        { id: 'theme-light', label: 'Light', run: () => void setTheme('light') },
        { id: 'theme-dark', label: 'Dark', run: () => void setTheme('dark') },
        { id: 'theme-system', label: 'Follow the system', run: () => void setTheme('system') },
      ],
    },
    { name: 'Spaces', commands: spaces },
    { name: 'Projects', commands: projects },
  ];
}

/**
 * A command matches when the words typed are in its group's name and its own ("go to inbox"
 * finds Inbox). cmdk's fuzzy score is off: task hits come already matched from the index.
 */
const matches = (group: string, c: Command, words: string) =>
  !words || `${group} ${c.label}`.toLowerCase().includes(words);

/** Tasks whose words match, from the replica's offline index, as the user types. */
function useTaskHits(text: string, open: boolean): Command[] {
  const [hits, setHits] = useState<Command[]>([]);
  useEffect(() => {
    const q = text.trim();
    if (!open || q.length < 2) {
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
  return hits;
}

/** Ctrl/Cmd+K: jump anywhere, run any command, or find a task by its words (offline index). */
export function CommandPalette() {
  const open = useApp((s) => s.paletteOpen);
  const [text, setText] = useState('');
  const tree = useQuery('spaces.nav', {}, open);
  const hits = useTaskHits(text, open);
  const close = () => {
    useApp.setState({ paletteOpen: false });
    setText('');
  };

  const groups = useMemo(() => {
    const spaces: Command[] = [];
    const projects: Command[] = [];
    for (const s of tree.data?.spaces ?? []) {
      spaces.push({
        id: `s${s.spaceId}`,
        label: s.spaceName,
        hint: projectCount(s.projects.length),
        run: go({ view: 'space', spaceId: s.spaceId }),
      });
      for (const p of s.projects)
        projects.push({
          id: `p${p.projectId}`,
          label: p.projectName,
          hint: s.spaceName,
          run: go({ view: 'project', projectId: p.projectId, mode: 'list' }),
        });
    }
    return baseGroups(spaces, projects);
  }, [tree.data]);

  const words = text.trim().toLowerCase();
  const shown: Group[] = groups
    .map((g) => ({ name: g.name, commands: g.commands.filter((c) => matches(g.name, c, words)) }))
    .filter((g) => g.commands.length > 0);
  const tasks = [...hits];
  if (words.length >= 2)
    tasks.push({
      id: 'search',
      label: `Search all tasks for “${text.trim()}”`,
      run: () => useApp.getState().go({ view: 'search', text: text.trim() }),
    });
  if (tasks.length) shown.push({ name: 'Tasks', commands: tasks });

  const pick = (c: Command) => {
    close();
    c.run();
  };
  return (
    <Modal open={open} title="Command palette" hideTitle onClose={close} className="palette">
      <Cmdk label="Type a command or search tasks" shouldFilter={false} loop>
        <Cmdk.Input
          className="palette-input"
          placeholder="Type a command or search tasks…"
          value={text}
          onValueChange={setText}
          data-autofocus
        />
        <Cmdk.List className="palette-list" label="Results">
          <Cmdk.Empty className="muted palette-empty">Nothing matches.</Cmdk.Empty>
          {shown.map((g) => (
            <Cmdk.Group key={g.name} heading={g.name} className="palette-section">
              {g.commands.map((c) => (
                <Cmdk.Item
                  key={c.id}
                  value={c.id}
                  className="palette-item"
                  onSelect={() => pick(c)}
                >
                  <span className="grow ellipsis palette-label">{c.label}</span>
                  {c.hint ? <span className="muted">{c.hint}</span> : null}
                </Cmdk.Item>
              ))}
            </Cmdk.Group>
          ))}
        </Cmdk.List>
      </Cmdk>
    </Modal>
  );
}
