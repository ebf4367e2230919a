// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Dialog } from './dialog';
import { Menu } from './menu';

afterEach(cleanup);

function Harness() {
  const [picked, setPicked] = useState('');
  const [tags, setTags] = useState(false);
  return (
    <>
      <output>{picked}</output>
      <Menu
        label="Display"
        trigger="Display"
        items={[
          {
            id: 'tags',
            label: 'Tags column',
            checked: tags,
            keepOpen: true,
            onSelect: () => setTags(!tags),
          },
          { id: 'fit', label: 'Fit columns', onSelect: () => setPicked('fit') },
          { id: 'out', label: 'Sign out', danger: true, onSelect: () => setPicked('out') },
        ]}
      />
    </>
  );
}

describe('Menu', () => {
  it('opens from the keyboard, moves with arrows, picks with Enter and gives focus back', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const trigger = screen.getByRole('button', { name: 'Display' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Display' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(
      screen.getByRole('menuitemcheckbox', { name: 'Tags column' }),
    );
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Sign out' }));
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('fit'));
    expect(menu.isConnected).toBe(false);
    expect(document.activeElement).toBe(trigger);
  });

  it('keeps a checkbox item open when picked and says its state', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const trigger = screen.getByRole('button', { name: 'Display' });
    await user.click(trigger);
    const tags = screen.getByRole('menuitemcheckbox', { name: 'Tags column' });
    expect(tags.getAttribute('aria-checked')).toBe('false');
    await user.click(tags);
    expect(
      screen.getByRole('menuitemcheckbox', { name: 'Tags column' }).getAttribute('aria-checked'),
    ).toBe('true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });
});

function MenuOpensDialog() {
  const [naming, setNaming] = useState(false);
  return (
    <>
      <Menu
        label="Saved views"
        trigger="Views"
        items={[{ id: 'save', label: 'Save this view…', onSelect: () => setNaming(true) }]}
      />
      <Dialog open={naming} title="Save this view" onClose={() => setNaming(false)}>
        <input aria-label="Name" data-autofocus />
      </Dialog>
    </>
  );
}

describe('Menu and Dialog', () => {
  it('a dialog opened from an item takes focus and gives it back to the menu button', async () => {
    const user = userEvent.setup();
    render(<MenuOpensDialog />);
    const trigger = screen.getByRole('button', { name: 'Saved views' });
    await user.click(trigger);
    await user.click(screen.getByRole('menuitem', { name: 'Save this view…' }));
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(document.activeElement).toBe(name));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });
});
