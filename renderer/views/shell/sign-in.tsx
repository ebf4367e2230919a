import { useState } from 'react';
import { isBridgeError, isLoopbackHost, type SyncStatus } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { bridge } from '../../data/bridge';
import { clearCache } from '../../data/query';
import { bytes } from '../../lib/format';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';

const streamLabels: Record<string, string> = {
  spaces: 'spaces',
  projects: 'projects',
  tasks: 'tasks',
  notifications: 'notifications',
  timers: 'time entries',
};

/** A first sync's progress in words: "1,200 of 5,000 tasks" (the total where it is known). */
export const bootstrapCounts = (p: NonNullable<SyncStatus['bootstrap']>): string =>
  `${p.itemsDone.toLocaleString()}${p.total ? ` of ${p.total.toLocaleString()}` : ''} ${streamLabels[p.stream] ?? p.stream}`;

/** Sign in to a server, or try the demo (an embedded reference server with sample data). */
export function SignIn() {
  const [serverUrl, setServerUrl] = useState('https://');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [allowInsecureHttp, setAllowInsecureHttp] = useState(false);
  const [busy, setBusy] = useState<'demo' | 'sign-in' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  // Plain http:// to another machine: the password and tokens would cross the network in clear.
  const insecure = (() => {
    const url = URL.parse(serverUrl.trim());
    return url?.protocol === 'http:' && !isLoopbackHost(url.hostname);
  })();

  const run = async (what: 'demo' | 'sign-in') => {
    setBusy(what);
    setError(null);
    setFieldErrors({});
    try {
      const session =
        what === 'demo'
          ? await bridge().invoke('session.startDemo', {})
          : await bridge().invoke('session.signIn', {
              serverUrl: serverUrl.trim(),
              email: email.trim(),
              password,
              ...(insecure && allowInsecureHttp ? { allowInsecureHttp: true } : {}),
            });
      clearCache();
      useApp.setState({ session });
    } catch (e) {
      if (isBridgeError(e)) {
        setError(
          e.code === 'unauthorized'
            ? 'That email and password did not match. Check them and try again.'
            : e.code === 'offline'
              ? 'The server could not be reached. Check the address and your connection.'
              : e.message,
        );
        setFieldErrors(Object.fromEntries((e.fieldErrors ?? []).map((f) => [f.field, f.message])));
      } else setError(String(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <main className="center-screen">
      <div className="card sign-in">
        <h1>Worktray</h1>
        <p className="muted">Your tasks, projects and time — fast, and available offline.</p>
        <Button
          variant="primary"
          className="wide"
          onClick={() => void run('demo')}
          disabled={busy !== null}
        >
          {busy === 'demo' ? 'Starting the demo…' : 'Try the demo'}
        </Button>
        <div className="divider">
          <span>or sign in to your server</span>
        </div>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run('sign-in');
          }}
        >
          <TextField
            label="Server URL"
            type="url"
            value={serverUrl}
            onChange={(e) => setServerUrl(e.target.value)}
            error={fieldErrors.serverUrl}
            required
          />
          {insecure ? (
            <label className="insecure-http">
              <input
                type="checkbox"
                checked={allowInsecureHttp}
                onChange={(e) => setAllowInsecureHttp(e.target.checked)}
              />{' '}
              Sign in without encryption: my password and session travel in clear over plain http://
            </label>
          ) : null}
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={fieldErrors.email}
            required
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fieldErrors.password}
            required
          />
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <Button variant="primary" type="submit" className="wide" disabled={busy !== null}>
            {busy === 'sign-in' ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </div>
    </main>
  );
}

/** Org choice after sign-in when the account belongs to several. */
export function OrgChoice() {
  const session = useApp((s) => s.session);
  const [busy, setBusy] = useState(false);
  return (
    <main className="center-screen">
      <div className="card sign-in">
        <h1>Choose an organization</h1>
        <ul className="stack org-list">
          {(session?.organizations ?? []).map((o) => (
            <li key={o.orgId}>
              <Button
                className="wide"
                disabled={busy}
                onClick={async () => {
                  setBusy(true);
                  try {
                    const s = await bridge().invoke('session.switchOrg', { orgId: o.orgId });
                    clearCache();
                    useApp.setState({ session: s });
                  } finally {
                    setBusy(false);
                  }
                }}
              >
                {o.orgName ?? `Organization ${o.orgId}`}
              </Button>
            </li>
          ))}
        </ul>
      </div>
    </main>
  );
}

/**
 * The first fill of the replica: how far each stream is, bytes received and an estimate of
 * what is left. The bulk export does not say how many tasks there are, so the estimate comes
 * from the rate so far once the bar has a total to aim at.
 */
export function BootstrapProgress({
  status,
  startedAt,
  now = Date.now(),
}: {
  status: SyncStatus | null;
  startedAt: number;
  now?: number;
}) {
  const p = status?.bootstrap;
  const [cancelling, setCancelling] = useState(false);
  const total = p?.total ?? null;
  const fraction = p && total ? Math.min(1, p.itemsDone / Math.max(1, total)) : null;
  const elapsed = Math.max(1, now - startedAt);
  const eta =
    fraction && fraction > 0.02 ? Math.round(((elapsed / fraction) * (1 - fraction)) / 1000) : null;
  return (
    <main className="center-screen">
      <div className="card sign-in">
        <h1>Getting your work ready</h1>
        <p className="muted">
          The first sync copies everything to this computer once; after that, it only fetches
          changes.
        </p>
        <div
          className="progress big"
          role="progressbar"
          aria-label="First sync"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
          aria-valuetext={p ? `${p.itemsDone} ${streamLabels[p.stream] ?? p.stream}` : 'Starting'}
        >
          <span
            className={fraction === null ? 'indeterminate' : ''}
            style={{ width: fraction === null ? '30%' : `${fraction * 100}%` }}
          />
        </div>
        <p className="row" data-testid="bootstrap-counts">
          <span className="grow">{p ? bootstrapCounts(p) : 'Connecting…'}</span>
          <span className="muted">{p ? bytes(p.bytes) : ''}</span>
          <span className="muted">
            {eta !== null
              ? `about ${eta < 60 ? `${eta}s` : `${Math.round(eta / 60)} min`} left`
              : ''}
          </span>
        </p>
        <Button
          disabled={cancelling}
          onClick={async () => {
            setCancelling(true);
            try {
              useApp.setState({ sync: await bridge().invoke('sync.cancelBootstrap', {}) });
            } finally {
              setCancelling(false);
            }
          }}
        >
          Cancel
        </Button>
      </div>
    </main>
  );
}
