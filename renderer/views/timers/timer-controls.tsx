import { useEffect, useRef, useState } from 'react';
import type { TimerRow } from '../../../shared/bridge';
import type { EditCommand } from '../../../shared/edits/commands';
import { formatMoment, formatTime } from '../../lib/dates';
import { clock, hours } from '../../lib/format';
import { Button, IconButton } from '../../ui/button';
import { IconPause, IconPlay, IconStop, IconTrash } from '../../ui/icons';
import { SyncMark } from '../../ui/sync-mark';

export interface TimerControlsProps {
  taskId: number;
  timers: readonly TimerRow[];
  onEdit: (cmd: EditCommand) => void;
  /** Injected for tests; Date.now in the app. */
  now?: () => number;
}

/** The live reading of a timer: the host's seconds plus the time since they were read. */
function useElapsed(timer: TimerRow | undefined, now: () => number) {
  const readAt = useRef(now());
  const [, tick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new row is a new reading
  useEffect(() => {
    readAt.current = now();
  }, [timer]);
  useEffect(() => {
    if (timer?.state !== 'RUNNING') return;
    const id = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(id);
  }, [timer?.state]);
  if (!timer) return 0;
  const extra = timer.state === 'RUNNING' ? Math.max(0, now() - readAt.current) / 1000 : 0;
  return timer.durationSeconds + extra;
}

/**
 * Start, pause, resume and stop the task's timer, log time by hand (a duration or a range),
 * and see the entries. The open timer is the last one not stopped.
 */
export function TimerControls({ taskId, timers, onEdit, now = Date.now }: TimerControlsProps) {
  const open = [...timers].reverse().find((t) => t.state !== 'STOPPED');
  const elapsed = useElapsed(open, now);
  const stopped = timers.filter((t) => t.state === 'STOPPED');
  const total = stopped.reduce((s, t) => s + t.durationSeconds, 0);
  const [manual, setManual] = useState<'none' | 'duration' | 'range'>('none');

  return (
    <section className="section" aria-labelledby="time-h">
      <div className="section-head">
        <h3 id="time-h">Time</h3>
        <span className="muted">{hours(total + (open ? elapsed : 0))} logged</span>
      </div>
      <div className="row timer-bar">
        <output
          className={`timer-clock mono${open?.state === 'RUNNING' ? ' is-running' : ''}`}
          aria-label="Timer"
        >
          {clock(open ? elapsed : 0)}
        </output>
        {open ? <SyncMark sync={open.sync} /> : null}
        {!open ? (
          <Button
            size="sm"
            variant="primary"
            icon={<IconPlay />}
            onClick={() => onEdit({ kind: 'timer.start', taskId })}
          >
            Start timer
          </Button>
        ) : open.state === 'RUNNING' ? (
          <Button
            size="sm"
            icon={<IconPause />}
            onClick={() => onEdit({ kind: 'timer.pause', trackId: open.trackId })}
          >
            Pause
          </Button>
        ) : (
          <Button
            size="sm"
            icon={<IconPlay />}
            onClick={() => onEdit({ kind: 'timer.resume', trackId: open.trackId })}
          >
            Resume
          </Button>
        )}
        {open ? (
          <Button
            size="sm"
            icon={<IconStop />}
            onClick={() => onEdit({ kind: 'timer.stop', trackId: open.trackId })}
          >
            Stop
          </Button>
        ) : null}
        <span className="grow" />
        <Button
          size="sm"
          variant="ghost"
          onClick={() => setManual(manual === 'duration' ? 'none' : 'duration')}
        >
          Log time
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => setManual(manual === 'range' ? 'none' : 'range')}
        >
          Log a range
        </Button>
      </div>
      {manual === 'duration' ? (
        <ManualForm
          now={now}
          onCancel={() => setManual('none')}
          onSubmit={(h, m, startTime) => {
            onEdit({ kind: 'timer.manual', taskId, hours: h, minutes: m, startTime });
            setManual('none');
          }}
        />
      ) : null}
      {manual === 'range' ? (
        <RangeForm
          now={now}
          onCancel={() => setManual('none')}
          onSubmit={(startTime, endTime) => {
            onEdit({ kind: 'timer.range', taskId, startTime, endTime });
            setManual('none');
          }}
        />
      ) : null}
      {stopped.length ? (
        <ul className="entries" aria-label="Time entries">
          {[...stopped].reverse().map((t) => (
            <li key={t.trackId} className="row entry">
              <span className="muted">{formatMoment(t.startTime)}</span>
              <span className="muted">{formatTime(t.startTime)}</span>
              <span className="grow">{hours(t.durationSeconds)}</span>
              <SyncMark sync={t.sync} />
              <IconButton
                label={`Delete entry of ${hours(t.durationSeconds)}`}
                icon={<IconTrash />}
                onClick={() => onEdit({ kind: 'timer.delete', trackId: t.trackId })}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

function ManualForm({
  now,
  onSubmit,
  onCancel,
}: {
  now: () => number;
  onSubmit: (hours: number, minutes: number, startTime: number) => void;
  onCancel: () => void;
}) {
  const [h, setH] = useState('0');
  const [m, setM] = useState('30');
  const [start, setStart] = useState(() => localInput(now() - 3_600_000));
  const hn = Number(h);
  const mn = Number(m);
  const valid =
    Number.isInteger(hn) &&
    Number.isInteger(mn) &&
    hn >= 0 &&
    hn <= 24 &&
    mn >= 0 &&
    mn <= 59 &&
    hn * 60 + mn > 0;
  return (
    <form
      className="row manual"
      aria-label="Log time"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onSubmit(hn, mn, new Date(start).getTime());
      }}
    >
      <label className="row">
        Hours
        <input
          className="input num"
          type="number"
          min={0}
          max={24}
          value={h}
          onChange={(e) => setH(e.target.value)}
        />
      </label>
      <label className="row">
        Minutes
        <input
          className="input num"
          type="number"
          min={0}
          max={59}
          value={m}
          onChange={(e) => setM(e.target.value)}
        />
      </label>
      <label className="row">
        Started
        <input
          className="input"
          type="datetime-local"
          value={start}
          onChange={(e) => setStart(e.target.value)}
        />
      </label>
      <Button size="sm" variant="primary" type="submit" disabled={!valid}>
        Add
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}

function RangeForm({
  now,
  onSubmit,
  onCancel,
}: {
  now: () => number;
  onSubmit: (startTime: number, endTime: number) => void;
  onCancel: () => void;
}) {
  const [from, setFrom] = useState(() => localInput(now() - 3_600_000));
  const [to, setTo] = useState(() => localInput(now()));
  const a = new Date(from).getTime();
  const b = new Date(to).getTime();
  const valid = Number.isFinite(a) && Number.isFinite(b) && b > a;
  return (
    <form
      className="row manual"
      aria-label="Log a range"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onSubmit(a, b);
      }}
    >
      <label className="row">
        From
        <input
          className="input"
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
      </label>
      <label className="row">
        To
        <input
          className="input"
          type="datetime-local"
          value={to}
          onChange={(e) => setTo(e.target.value)}
        />
      </label>
      {!valid ? <span className="field-error">The end must be after the start.</span> : null}
      <Button size="sm" variant="primary" type="submit" disabled={!valid}>
        Add
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}
