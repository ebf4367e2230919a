import { useEffect, useState } from 'react';
import { type Route, useApp } from '../../data/app-store';
import { bridge } from '../../data/bridge';
import { clearCache, holdReads, useQuery } from '../../data/query';
import { initials, userName } from '../../lib/format';
import {
  IconChevron,
  IconClock,
  IconFolder,
  IconInbox,
  IconList,
  IconSettings,
  IconSync,
} from '../../ui/icons';
import { Menu } from '../../ui/menu';
import { toast } from '../../ui/toast';
import { useSyncChangesToast } from '../sync/sync-changes';
import '../../styles/nav-space.css';

const same = (a: Route, b: Route) =>
  a.view === b.view &&
  (a.view !== 'project' || (b.view === 'project' && a.projectId === b.projectId)) &&
  (a.view !== 'space' || (b.view === 'space' && a.spaceId === b.spaceId));

function NavItem({
  route,
  icon,
  label,
  count,
  unread,
  countWords = ' unread',
  extra,
}: {
  route: Route;
  icon?: React.ReactNode;
  label: string;
  count?: number;
  unread?: boolean;
  /** What the count counts, for screen readers (the badge alone is a bare number). */
  countWords?: string;
  extra?: React.ReactNode;
}) {
  const current = useApp((s) => s.route);
  return (
    <button
      type="button"
      className="nav-item"
      aria-current={same(current, route) ? 'page' : undefined}
      onClick={() => useApp.getState().go(route)}
    >
      {icon}
      <span className="grow ellipsis">{label}</span>
      {count ? (
        <span className={`nav-count${unread ? ' is-unread' : ''}`} data-testid="nav-count">
          {count}
          {unread ? <span className="sr-only">{countWords}</span> : null}
        </span>
      ) : null}
      {extra}
    </button>
  );
}

function SyncBadge() {
  const sync = useApp((s) => s.sync);
  if (!sync) return null;
  const failed = sync.failed.length;
  const label = failed
    ? `${failed} need attention`
    : !sync.online
      ? `Offline${sync.pending ? ` · ${sync.pending} to send` : ''}`
      : sync.pending
        ? `${sync.pending} to send`
        : sync.activity !== 'idle'
          ? 'Syncing…'
          : 'Up to date';
  const tone = failed
    ? 'is-failed'
    : !sync.online
      ? 'is-offline'
      : sync.pending
        ? 'is-pending'
        : 'is-ok';
  return (
    <span className={`sync-dot ${tone}`} data-testid="sync-badge">
      {label}
    </span>
  );
}

function useDeferredReady() {
  const mainReady = useApp((s) => s.mainReady);
  const [late, setLate] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setLate(true), 400);
    return () => clearTimeout(t);
  }, []);
  return mainReady || late;
}

export function Sidebar() {
  const session = useApp((s) => s.session);
  const changesUnseen = useApp((s) => s.sync?.changesUnseen ?? 0);
  useSyncChangesToast();
  // The list the user opened comes first; the navigation right after it.
  const ready = useDeferredReady();
  const unread = useQuery('notifications.unreadCount', {}, ready);
  const tree = useQuery('spaces.nav', {}, ready);
  const [closed, setClosed] = useState<Record<number, boolean>>({});
  const orgs = session?.organizations ?? [];
  const org = orgs.find((o) => o.orgId === session?.currentOrgId);

  return (
    <nav className="sidebar" aria-label="Main">
      <div className="row org-row">
        {session?.user ? (
          <span className="avatar" aria-hidden="true">
            {initials(session.user)}
          </span>
        ) : null}
        <Menu
          label="Organization and account"
          className="grow"
          trigger={
            <span className="ellipsis">
              {org?.orgName ?? 'Organization'}
              {session?.demo ? ' (demo)' : ''}
            </span>
          }
          items={[
            ...orgs.map((o) => ({
              id: `org-${o.orgId}`,
              label: o.orgName,
              checked: o.orgId === session?.currentOrgId,
              onSelect: async () => {
                if (o.orgId === session?.currentOrgId) return;
                try {
                  const s = await bridge().invoke('session.switchOrg', { orgId: o.orgId });
                  clearCache();
                  useApp.setState({ session: s, route: { view: 'my' }, openTaskId: null });
                } catch (e) {
                  toast(`Could not switch: ${e instanceof Error ? e.message : e}`, 'error');
                }
              },
            })),
            {
              id: 'sign-out',
              label: `Sign out${session?.user ? ` ${userName(session.user)}` : ''}`,
              onSelect: async () => {
                // No re-read from here on: the host is about to have no session.
                holdReads();
                try {
                  const s = await bridge().invoke('session.signOut', {});
                  clearCache({ reread: false });
                  useApp.setState({ session: s, sync: null, openTaskId: null });
                } catch (e) {
                  clearCache();
                  toast(`Could not sign out: ${e instanceof Error ? e.message : e}`, 'error');
                }
              },
            },
          ]}
        />
      </div>
      <NavItem route={{ view: 'my' }} icon={<IconList />} label="My tasks" />
      <NavItem
        route={{ view: 'inbox' }}
        icon={<IconInbox />}
        label="Inbox"
        count={unread.data?.count}
        unread
      />
      <NavItem route={{ view: 'personal' }} icon={<IconList />} label="Personal tasks" />
      <NavItem route={{ view: 'timesheet' }} icon={<IconClock />} label="Timesheet" />
      <h3 className="nav-section row">
        <span className="grow">Spaces</span>
        <button
          type="button"
          className="link small"
          onClick={() => useApp.getState().go({ view: 'spaces' })}
        >
          Manage
        </button>
      </h3>
      <ul className="nav-tree" aria-label="Spaces and projects">
        {(tree.data?.spaces ?? []).map((s) => (
          <li key={s.spaceId}>
            {/* The chevron folds the space's projects; its name opens the space's overview. */}
            <div className="nav-space">
              <button
                type="button"
                className="nav-fold"
                aria-label={`Projects of ${s.spaceName}`}
                aria-expanded={!closed[s.spaceId]}
                onClick={() => setClosed((c) => ({ ...c, [s.spaceId]: !c[s.spaceId] }))}
              >
                <IconChevron open={!closed[s.spaceId]} />
              </button>
              <NavItem route={{ view: 'space', spaceId: s.spaceId }} label={s.spaceName} />
            </div>
            {closed[s.spaceId] ? null : (
              <ul className="nav-tree">
                {s.projects.map((p) => (
                  <li key={p.projectId}>
                    <NavItem
                      route={{ view: 'project', projectId: p.projectId, mode: 'list' }}
                      icon={<IconFolder />}
                      label={p.projectName}
                    />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <div className="sidebar-foot">
        <NavItem route={{ view: 'settings' }} icon={<IconSettings />} label="Settings" />
        <NavItem
          route={{ view: 'sync' }}
          icon={<IconSync />}
          label="Sync"
          count={changesUnseen}
          unread
          countWords={` new ${changesUnseen === 1 ? 'change' : 'changes'} from sync`}
          extra={<SyncBadge />}
        />
      </div>
    </nav>
  );
}
