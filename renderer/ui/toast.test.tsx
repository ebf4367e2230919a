// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DialogHarness } from './dialog.fixture';
import { ToastRegion, toast, useToasts } from './toast';

afterEach(() => {
  cleanup();
  useToasts.getState().clear();
});

/** The app's toast region beside a dialog opened from state, as the views open theirs. */
const Harness = ({ confirm = false }: { confirm?: boolean }) => (
  <>
    <DialogHarness confirm={confirm} />
    <ToastRegion />
  </>
);

const hiddenFromReaders = (el: Element) => el.closest('[aria-hidden="true"]') !== null;

describe('a toast while a modal is open', () => {
  it('can be heard and clicked, and its action leaves the dialog open', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    let undone = 0;
    act(() => {
      toast('Could not save the title', 'error', { label: 'Retry', run: () => undone++ });
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Could not save the title');
    expect(hiddenFromReaders(alert)).toBe(false);
    // user-event refuses a click on what has or inherits `pointer-events: none`, as the
    // page outside a Radix modal does.
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(undone).toBe(1);
    expect(screen.queryByText('Could not save the title')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'New task' })).toBeTruthy();
  });

  it('is in the dialog’s Tab cycle, which still never leaves the dialog', async () => {
    const user = userEvent.setup();
    render(<Harness confirm />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    act(() => {
      toast('Moved to Done', 'info', { label: 'Undo', run: () => {} });
    });
    const status = screen.getByRole('status');
    expect(hiddenFromReaders(status)).toBe(false);
    const dialog = screen.getByRole('alertdialog');
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      await user.tab();
      const at = document.activeElement;
      expect(at && dialog.contains(at)).toBe(true);
      seen.push(at?.textContent || at?.getAttribute('aria-label') || '');
    }
    expect(seen).toEqual(['Delete', 'Undo', 'Dismiss', 'Cancel', 'Delete']);
    // The page under the dialog stays hidden and out of reach.
    expect(hiddenFromReaders(opener)).toBe(true);
  });

  it('goes back to its own place when the dialog closes', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => {
      toast('Saved', 'success');
    });
    expect(screen.getByText('Saved').closest('[role="status"]')?.className).toBe('toast-stack');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Saved')).toBeNull();
  });
});
