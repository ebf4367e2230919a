// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimerRow } from '../../../shared/bridge';
import { type EditCommand, editCommand } from '../../../shared/edits/commands';
import { TimerControls } from './timer-controls';

afterEach(cleanup);

const timer = (over: Partial<TimerRow>): TimerRow => ({
  trackId: 1,
  taskId: 5,
  userId: 7,
  state: 'STOPPED',
  startTime: Date.UTC(2026, 10, 20, 9),
  durationSeconds: 1800,
  sync: 'synced',
  ...over,
});

const setup = (timers: TimerRow[], now = () => Date.UTC(2026, 10, 20, 12)) => {
  const sent: EditCommand[] = [];
  const view = render(
    <TimerControls
      taskId={5}
      timers={timers}
      now={now}
      onEdit={(c) => sent.push(editCommand.parse(c))}
    />,
  );
  return { sent, user: userEvent.setup(), view };
};

describe('TimerControls', () => {
  it('starts a timer when none is open, and lists stopped entries', async () => {
    const { sent, user } = setup([timer({})]);
    expect(screen.getByRole('list', { name: 'Time entries' }).textContent).toContain('30m');
    await user.click(screen.getByRole('button', { name: 'Start timer' }));
    expect(sent).toEqual([{ kind: 'timer.start', taskId: 5 }]);
  });

  it('pauses and stops a running timer whose clock keeps counting', async () => {
    let clock = Date.UTC(2026, 10, 20, 12);
    const { sent, user } = setup(
      [timer({ trackId: 3, state: 'RUNNING', durationSeconds: 65 })],
      () => clock,
    );
    expect(screen.getByLabelText('Timer').textContent).toBe('0:01:05');
    clock += 10_000;
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1_100));
    });
    expect(screen.getByLabelText('Timer').textContent).toBe('0:01:15');
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(sent).toEqual([
      { kind: 'timer.pause', trackId: 3 },
      { kind: 'timer.stop', trackId: 3 },
    ]);
  });

  it('resumes a paused timer without counting the paused time', async () => {
    const { sent, user } = setup([timer({ trackId: 4, state: 'PAUSED', durationSeconds: 600 })]);
    expect(screen.getByLabelText('Timer').textContent).toBe('0:10:00');
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(sent).toEqual([{ kind: 'timer.resume', trackId: 4 }]);
  });

  it('logs manual time and a range, refusing a range that ends before it starts', async () => {
    const { sent, user } = setup([]);
    await user.click(screen.getByRole('button', { name: 'Log time' }));
    const hours = screen.getByRole('spinbutton', { name: 'Hours' });
    await user.clear(hours);
    await user.type(hours, '1');
    const minutes = screen.getByRole('spinbutton', { name: 'Minutes' });
    await user.clear(minutes);
    await user.type(minutes, '15');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(sent[0]).toMatchObject({ kind: 'timer.manual', taskId: 5, hours: 1, minutes: 15 });

    await user.click(screen.getByRole('button', { name: 'Log a range' }));
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    await user.clear(to);
    await user.type(to, '2026-11-20T08:00');
    await user.clear(from);
    await user.type(from, '2026-11-20T09:00');
    expect(screen.getByText('The end must be after the start.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(true);
    await user.clear(to);
    await user.type(to, '2026-11-20T10:30');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const range = sent[1];
    expect(range?.kind).toBe('timer.range');
    if (range?.kind === 'timer.range') expect(range.endTime - range.startTime).toBe(90 * 60_000);
  });
});
