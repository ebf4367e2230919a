import { useEffect, useState } from 'react';
import { connect, useApp } from '../data/app-store';
import { bridge } from '../data/bridge';
import { redoLast, undoLast } from '../data/history';
import { HelpSheet } from '../shortcuts/help-sheet';
import { useShortcut } from '../shortcuts/keys';
import { CommandPalette } from '../shortcuts/palette';
import { Button } from '../ui/button';
import { ToastRegion, useToasts } from '../ui/toast';
import { Inbox } from '../views/inbox/inbox';
import { ProjectView } from '../views/projects/project-view';
import { SpaceOverview } from '../views/projects/space-overview';
import { Spaces } from '../views/projects/spaces';
import { Settings } from '../views/settings/settings';
import { Sidebar } from '../views/shell/sidebar';
import { BootstrapProgress, bootstrapCounts, OrgChoice, SignIn } from '../views/shell/sign-in';
import { SyncPanel } from '../views/sync/sync-panel';
import { TaskDetail } from '../views/task-detail/task-detail';
import { MyTasks } from '../views/tasks/my-tasks';
import { NewTaskDialog } from '../views/tasks/new-task';
import { SearchView } from '../views/tasks/search-view';
import { TaskListView } from '../views/tasks/task-list-view';
import { Timesheet } from '../views/timers/timesheet';

/** The theme setting on <html>: "system" leaves it to prefers-color-scheme. */
function useTheme() {
  const theme = useApp((s) => s.settings?.theme ?? 'system');
  useEffect(() => {
    if (theme === 'system') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
  }, [theme]);
}

function GlobalShortcuts() {
  const set = useApp((s) => s.set);
  const go = useApp((s) => s.go);
  useShortcut('palette', () => set({ paletteOpen: !useApp.getState().paletteOpen }));
  useShortcut('help', () => set({ helpOpen: true }));
  useShortcut('search', () => go({ view: 'search', text: '' }));
  useShortcut('undo', undoLast);
  useShortcut('redo', redoLast);
  useShortcut('newTask', () => set({ newTaskOpen: true }));
  useShortcut('goMy', () => go({ view: 'my' }));
  useShortcut('goInbox', () => go({ view: 'inbox' }));
  useShortcut('goTimesheet', () => go({ view: 'timesheet' }));
  useShortcut('goSync', () => go({ view: 'sync' }));
  useShortcut('goPersonal', () => go({ view: 'personal' }));
  useShortcut('goSpaces', () => go({ view: 'spaces' }));
  useShortcut('goSettings', () => go({ view: 'settings' }));
  return null;
}

function MainPane() {
  const route = useApp((s) => s.route);
  // What a toast said was about the screen it came from: it does not follow the user.
  useEffect(() => {
    if (route) useToasts.getState().clear();
  }, [route]);
  switch (route.view) {
    case 'my':
      return <MyTasks />;
    case 'personal':
      return <TaskListView key="personal" scope={{ kind: 'personal' }} title="Personal tasks" />;
    case 'project':
      return <ProjectView projectId={route.projectId} mode={route.mode} />;
    case 'inbox':
      return <Inbox />;
    case 'timesheet':
      return <Timesheet />;
    case 'sync':
      return <SyncPanel />;
    case 'spaces':
      return <Spaces />;
    case 'space':
      return <SpaceOverview key={route.spaceId} spaceId={route.spaceId} />;
    case 'settings':
      return <Settings />;
    case 'search':
      return <SearchView text={route.text} />;
  }
}

function StatusBanner() {
  const sync = useApp((s) => s.sync);
  const session = useApp((s) => s.session);
  if (!sync) return null;
  if (sync.needsSignIn)
    return (
      <div className="banner banner-danger" role="alert">
        <span className="grow">
          Your session expired. Your edits are kept; sign in again to send them.
        </span>
        <Button
          size="sm"
          onClick={() =>
            useApp.setState({ session: session ? { ...session, signedIn: false } : session })
          }
        >
          Sign in
        </Button>
      </div>
    );
  if (sync.paused && session?.bootstrapping === false && sync.bootstrap)
    return (
      <div className="banner" role="status">
        <span className="grow">The first sync is paused; what arrived so far is shown.</span>
        <Button
          size="sm"
          onClick={() =>
            void bridge()
              .invoke('sync.resume', {})
              .then((s) => useApp.setState({ sync: s }))
          }
        >
          Resume
        </Button>
      </div>
    );
  if (session?.bootstrapping && !sync.paused)
    return (
      <div className="banner" role="status" data-testid="rebuild-banner">
        <span className="grow">
          Copying everything from the server again
          {sync.bootstrap ? ` (${bootstrapCounts(sync.bootstrap)} so far)` : ''}: lists fill up as
          it arrives. Your edits are kept and will be sent.
        </span>
      </div>
    );
  if (!sync.online)
    return (
      <div className="banner" role="status" data-testid="offline-banner">
        <span className="grow">
          Offline. Everything still works here
          {sync.pending ? `; ${sync.pending} edits will be sent when the server is back` : ''}.
        </span>
      </div>
    );
  return null;
}

function BootstrapProgressLive({ startedAt }: { startedAt: number }) {
  const sync = useApp((s) => s.sync);
  return <BootstrapProgress status={sync} startedAt={startedAt} />;
}

export function App() {
  useTheme();
  const session = useApp((s) => s.session);
  const sessionError = useApp((s) => s.sessionError);
  const syncPaused = useApp((s) => s.sync?.paused ?? false);
  const openTaskId = useApp((s) => s.openTaskId);
  const [bootStart] = useState(() => Date.now());
  useEffect(() => connect(), []);
  // The org whose main view has been up. A later fresh bootstrap of it (the server would not
  // continue a delta, or a migration asked for one) keeps the view, under a banner: swapping
  // the window for the first-sync screen dropped open dialogs and their drafts.
  const [shownOrg, setShownOrg] = useState<number | null>(null);
  const signedInOrg = session?.signedIn ? session.currentOrgId : null;
  const firstSync = session?.bootstrapping === true && !syncPaused && shownOrg !== signedInOrg;
  const mainOrg = !sessionError && signedInOrg !== null && !firstSync ? signedInOrg : null;
  useEffect(() => {
    if (signedInOrg === null) setShownOrg(null);
    else if (mainOrg !== null) setShownOrg(mainOrg);
  }, [signedInOrg, mainOrg]);

  let body: React.ReactNode;
  if (sessionError) {
    body = (
      <main className="center-screen">
        <div className="card sign-in" role="alert">
          <h1>Worktray cannot reach its host</h1>
          <p className="muted">{sessionError}</p>
          <p className="muted">
            If you opened this page by hand, open the link Worktray printed when it started (it
            carries a secret).
          </p>
          <Button onClick={() => window.location.reload()}>Try again</Button>
        </div>
      </main>
    );
  } else if (!session) {
    body = <main className="center-screen" aria-busy="true" aria-label="Starting" />;
  } else if (!session.signedIn) {
    body = <SignIn />;
  } else if (session.currentOrgId === null) {
    body = <OrgChoice />;
  } else if (firstSync) {
    body = <BootstrapProgressLive startedAt={bootStart} />;
  } else {
    body = (
      <div className="app">
        <Sidebar />
        <div className="main-col">
          <StatusBanner />
          <MainPane />
        </div>
        {openTaskId !== null ? <TaskDetail key={openTaskId} taskId={openTaskId} /> : <div />}
        <GlobalShortcuts />
        <CommandPalette />
        <HelpSheet />
        <NewTaskDialog />
      </div>
    );
  }
  return (
    <>
      {body}
      <ToastRegion />
    </>
  );
}
