// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DialogHarness as Harness } from './dialog.fixture';

afterEach(cleanup);

describe('Dialog', () => {
  it('is named by its title, focuses the marked field, keeps Tab inside, and Escape gives focus back', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'New task' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Title' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    // Past the last control, Tab comes round to the first one, never to the page below.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Status' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes on a click beside it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const backdrop = screen.getByRole('dialog').parentElement;
    if (!backdrop) throw new Error('no backdrop');
    await user.pointer({ keys: '[MouseLeft]', target: backdrop });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('ConfirmDialog', () => {
  it('is an alert dialog described by its message, with Cancel focused', async () => {
    const user = userEvent.setup();
    render(<Harness confirm />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this task?' });
    const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('It goes for everyone.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    // An alert dialog wants an answer: a click beside it does not dismiss it.
    const backdrop = dialog.parentElement;
    if (!backdrop) throw new Error('no backdrop');
    await user.pointer({ keys: '[MouseLeft]', target: backdrop });
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('deleted');
  });
});
