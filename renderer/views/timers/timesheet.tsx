import { useState } from 'react';
import { useQuery } from '../../data/query';
import { ago, DAY_MS, formatWeek, formatWeekday } from '../../lib/dates';
import { hours } from '../../lib/format';
import { type WeekGrid, weekCsv, weekGrid, weekStart } from '../../lib/timesheet';
import { Button, IconButton } from '../../ui/button';
import { IconChevron } from '../../ui/icons';

const palette = [
  '#6366f1',
  '#0ea5e9',
  '#10b981',
  '#f59e0b',
  '#ef4444',
  '#a855f7',
  '#14b8a6',
  '#64748b',
];

/** Bars per day stacked by project, in plain SVG. */
export function WeekChart({ grid }: { grid: WeekGrid }) {
  const W = 640;
  const H = 200;
  const pad = { l: 36, r: 8, t: 8, b: 24 };
  const maxH = Math.max(1, Math.ceil(Math.max(...grid.dayTotals, 0) / 3600));
  const y = (s: number) => (s / 3600 / maxH) * (H - pad.t - pad.b);
  const slot = (W - pad.l - pad.r) / Math.max(1, grid.days.length);
  const ticks = Array.from({ length: Math.min(maxH, 6) + 1 }, (_, i) =>
    Math.round((i * maxH) / Math.min(maxH, 6)),
  );
  const summary = grid.days
    .map((d, i) => `${formatWeekday(d)}: ${hours(grid.dayTotals[i] ?? 0)}`)
    .join(', ');
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Hours per day: ${summary}`}
    >
      {ticks.map((t) => {
        const yy = H - pad.b - y(t * 3600);
        return (
          <g key={t}>
            <line x1={pad.l} x2={W - pad.r} y1={yy} y2={yy} className="chart-grid" />
            <text x={pad.l - 6} y={yy + 4} textAnchor="end" className="chart-label">
              {t}h
            </text>
          </g>
        );
      })}
      {grid.days.map((d, i) => {
        let acc = 0;
        const x = pad.l + i * slot + slot * 0.2;
        return (
          <g key={d}>
            {grid.rows.map((r, j) => {
              const s = r.perDay[i] ?? 0;
              if (!s) return null;
              const h = y(s);
              acc += h;
              return (
                <rect
                  key={r.projectId ?? 'personal'}
                  x={x}
                  width={slot * 0.6}
                  y={H - pad.b - acc}
                  height={h}
                  rx={2}
                  fill={palette[j % palette.length]}
                >
                  <title>{`${r.name}: ${hours(s)}`}</title>
                </rect>
              );
            })}
            <text x={x + slot * 0.3} y={H - 6} textAnchor="middle" className="chart-label">
              {formatWeekday(d)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function Timesheet() {
  const [from, setFrom] = useState(() => weekStart(Date.now()));
  const q = useQuery('timesheet.range', { from, to: from + 7 * DAY_MS });
  const grid = q.data ? weekGrid(q.data) : null;
  const label = formatWeek(from, from + 6 * DAY_MS);
  return (
    <div className="main">
      <div className="toolbar">
        <h1>Timesheet</h1>
        <IconButton
          label="Previous week"
          icon={
            <span style={{ transform: 'rotate(180deg)', display: 'inline-flex' }}>
              <IconChevron />
            </span>
          }
          onClick={() => setFrom(from - 7 * DAY_MS)}
        />
        <span aria-live="polite">{label}</span>
        <IconButton
          label="Next week"
          icon={<IconChevron />}
          onClick={() => setFrom(from + 7 * DAY_MS)}
        />
        <Button size="sm" variant="ghost" onClick={() => setFrom(weekStart(Date.now()))}>
          This week
        </Button>
        <Button
          size="sm"
          disabled={!grid}
          onClick={() =>
            grid &&
            download(`timesheet-${new Date(from).toISOString().slice(0, 10)}.csv`, weekCsv(grid))
          }
        >
          Export CSV
        </Button>
      </div>
      <div className="content padded">
        {q.data?.source === 'cache' ? (
          <p className="muted">
            Offline copy from {ago(q.data.fetchedAt)}; it refreshes when you are back online.
          </p>
        ) : null}
        {q.error && !q.data ? (
          <div className="empty" role="alert">
            <strong>The timesheet could not be read</strong>
            <span>{q.error.message}</span>
            <Button onClick={q.reload}>Try again</Button>
          </div>
        ) : !grid ? (
          <div
            className="skeleton"
            style={{ height: 200 }}
            role="status"
            aria-label="Loading timesheet"
          />
        ) : (
          <>
            <div className="row">
              <h2 className="grow">{hours(grid.total)} this week</h2>
              <ul className="legend" aria-label="Projects">
                {grid.rows.map((r, j) => (
                  <li key={r.projectId ?? 'personal'}>
                    <span
                      className="swatch"
                      style={{ background: palette[j % palette.length] }}
                      aria-hidden="true"
                    />
                    {r.name}
                  </li>
                ))}
              </ul>
            </div>
            <WeekChart grid={grid} />
            <table className="sheet">
              <caption className="sr-only">Hours per project and day</caption>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  {grid.days.map((d) => (
                    <th key={d} scope="col">
                      {formatWeekday(d)}
                    </th>
                  ))}
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {grid.rows.map((r) => (
                  <tr key={r.projectId ?? 'personal'}>
                    <th scope="row">{r.name}</th>
                    {r.perDay.map((s, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: one cell per weekday
                      <td key={i}>{s ? hours(s) : ''}</td>
                    ))}
                    <td>{hours(r.total)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  {grid.dayTotals.map((s, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: one cell per weekday
                    <td key={i}>{s ? hours(s) : ''}</td>
                  ))}
                  <td>{hours(grid.total)}</td>
                </tr>
              </tfoot>
            </table>
            {grid.rows.length === 0 ? (
              <div className="empty">
                <strong>No time tracked this week</strong>
                <span>Start a timer on a task (T in the task detail) and it shows up here.</span>
              </div>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
