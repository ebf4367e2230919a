// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../data/app-store';
import { Button } from '../ui/button';
import { CommandPalette } from './palette';

/**
 * A preload-shaped host answering the two reads the palette makes; the real bridge client
 * checks both directions against the contract.
 */
const searched: string[] = [];
beforeAll(() => {
  window.worktray = {
    invoke: async (method, input) => {
      if (method === 'spaces.nav')
        return {
          ok: true,
          value: {
            spaces: [
              {
                spaceId: 1,
                spaceName: 'Product',
                sync: 'synced',
                projects: [{ projectId: 7, spaceId: 1, projectName: 'Mobile App', sync: 'synced' }],
              },
              { spaceId: 2, spaceName: 'Operations', sync: 'synced', projects: [] },
            ],
          },
        };
      if (method === 'tasks.search') {
        const text = (input as { text: string }).text;
        searched.push(text);
        return {
          ok: true,
          value: {
            hits: text.includes('onboard')
              ? [
                  {
                    taskId: 42,
                    title: 'Design the mobile onboarding',
                    segments: [{ text: 'Design the mobile onboarding', hit: false }],
                    projectId: 7,
                    projectName: 'Mobile App',
                    parentTaskId: null,
                    status: 'Open',
                    completed: false,
                  },
                ]
              : [],
          },
        };
      }
      return { ok: false, error: { code: 'internal', message: `unexpected ${method}` } };
    },
    on: () => () => {},
  };
});

afterEach(() => {
  cleanup();
  useApp.setState({ paletteOpen: false, route: { view: 'my' }, openTaskId: null });
});

const openPalette = async () => {
  render(
    <>
      <Button>Before</Button>
      <CommandPalette />
    </>,
  );
  screen.getByRole('button', { name: 'Before' }).focus();
  act(() => useApp.setState({ paletteOpen: true }));
  const palette = await screen.findByRole('dialog', { name: 'Command palette' });
  await within(palette).findByRole('option', { name: /Mobile App/ });
  return palette;
};

/** Each option with the heading of the group it is in. */
const listed = (palette: HTMLElement) =>
  within(palette)
    .getAllByRole('option')
    .map((o) => {
      const group = o.closest('[role="group"]');
      const heading = document.getElementById(group?.getAttribute('aria-labelledby') ?? '');
      return {
        group: heading?.textContent ?? '',
        label: o.querySelector('.grow')?.textContent ?? '',
        hint: o.querySelector('.muted')?.textContent ?? '',
      };
    });

describe('CommandPalette', () => {
  it('lists each kind of command once, under its own heading, without repeating it', async () => {
    const palette = await openPalette();
    const items = listed(palette);
    const groups = items.map((i) => i.group).filter((g, i, all) => g !== all[i - 1]);
    expect(groups).toEqual(['Commands', 'Go to', 'Theme', 'Spaces', 'Projects']);
    expect(items.filter((i) => i.label.startsWith(i.group))).toEqual([]);
    expect(items.find((i) => i.label === 'My tasks')?.group).toBe('Go to');
    expect(items.find((i) => i.label === 'Settings')?.group).toBe('Go to');
    // Every view in Go to has its `g …` keys beside it.
    expect(items.filter((i) => i.group === 'Go to' && !i.hint)).toEqual([]);
    expect(document.activeElement).toBe(within(palette).getByRole('combobox'));
  });

  it("goes to Spaces (with its shortcut) and to each space's overview", async () => {
    const user = userEvent.setup();
    const palette = await openPalette();
    const items = listed(palette);
    expect(items.find((i) => i.label === 'Spaces')).toEqual({
      group: 'Go to',
      label: 'Spaces',
      hint: 'G then O',
    });
    expect(items.filter((i) => i.group === 'Spaces')).toEqual([
      { group: 'Spaces', label: 'Product', hint: '1 project' },
      { group: 'Spaces', label: 'Operations', hint: '0 projects' },
    ]);
    await user.click(within(palette).getByRole('option', { name: /Operations/ }));
    expect(useApp.getState().route).toEqual({ view: 'space', spaceId: 2 });
    expect(useApp.getState().paletteOpen).toBe(false);
  });

  it('goes with arrows and Enter, and gives focus back when it closes', async () => {
    const user = userEvent.setup();
    const palette = await openPalette();
    await user.keyboard('go to inb');
    await waitFor(() =>
      expect(listed(palette).map((i) => i.label)).toEqual([
        'Inbox',
        'Search all tasks for “go to inb”',
      ]),
    );
    await user.keyboard('{Enter}');
    expect(useApp.getState().route).toEqual({ view: 'inbox' });
    expect(useApp.getState().paletteOpen).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }));
  });

  it('finds tasks through the bridge and offers to search them all', async () => {
    const user = userEvent.setup();
    const palette = await openPalette();
    await user.keyboard('onboarding');
    await within(palette).findByRole('option', { name: /Design the mobile onboarding/ });
    expect(searched.at(-1)).toBe('onboarding');
    const tasks = listed(palette).filter((i) => i.group === 'Tasks');
    expect(tasks.map((i) => i.label)).toEqual([
      'Design the mobile onboarding',
      'Search all tasks for “onboarding”',
    ]);
    const selected = () =>
      within(palette)
        .getAllByRole('option')
        .find((o) => o.getAttribute('aria-selected') === 'true')?.textContent;
    await user.keyboard('{End}');
    expect(selected()).toContain('Search all tasks');
    await user.keyboard('{ArrowUp}');
    expect(selected()).toContain('Design the mobile onboarding');
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    expect(useApp.getState().route).toEqual({ view: 'search', text: 'onboarding' });
  });

  it('Escape closes it without running anything', async () => {
    const user = userEvent.setup();
    await openPalette();
    await user.keyboard('{Escape}');
    expect(useApp.getState().paletteOpen).toBe(false);
    expect(useApp.getState().route).toEqual({ view: 'my' });
  });
});
