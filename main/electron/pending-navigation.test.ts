import { describe, expect, it } from 'vitest';
import { type NavigationSink, PendingNavigation } from './pending-navigation';

const recorder = () => {
  const sent: string[] = [];
  let listening = true;
  const sink: NavigationSink = {
    navigate: (taskId) => sent.push(`navigate ${taskId}`),
    openView: (view) => sent.push(`openView ${view}`),
  };
  return {
    sent,
    sink: () => (listening ? sink : null),
    setListening: (on: boolean) => {
      listening = on;
    },
  };
};

describe('PendingNavigation', () => {
  it('holds a view asked for before the page loaded and sends it once loaded', () => {
    const r = recorder();
    const nav = new PendingNavigation(r.sink);
    nav.queue({ view: 'settings' });
    nav.flush();
    expect(r.sent).toEqual([]);
    nav.pageLoaded();
    expect(r.sent).toEqual(['openView settings']);
    nav.flush();
    expect(r.sent).toEqual(['openView settings']);
  });

  it('sends at once while the page listens; a closed window makes it wait again', () => {
    const r = recorder();
    const nav = new PendingNavigation(r.sink);
    nav.pageLoaded();
    nav.queue({ view: 'sync' });
    nav.flush();
    expect(r.sent).toEqual(['openView sync']);
    nav.pageGone();
    nav.queue({ view: 'settings' });
    nav.flush();
    expect(r.sent).toEqual(['openView sync']);
    nav.pageLoaded();
    expect(r.sent).toEqual(['openView sync', 'openView settings']);
  });

  it("keeps the latest view and task; the launch's link waits for the first load", () => {
    const r = recorder();
    const nav = new PendingNavigation(r.sink, 42);
    nav.queue({ view: 'sync' });
    nav.queue({ view: 'settings' });
    nav.pageLoaded();
    // The view first, so the task opens beside it rather than being replaced.
    expect(r.sent).toEqual(['openView settings', 'navigate 42']);
    nav.queue({ taskId: 7 });
    nav.flush();
    expect(r.sent.at(-1)).toBe('navigate 7');
  });

  it('waits while there is no host to send through', () => {
    const r = recorder();
    const nav = new PendingNavigation(r.sink);
    r.setListening(false);
    nav.pageLoaded();
    nav.queue({ view: 'settings' });
    nav.flush();
    expect(r.sent).toEqual([]);
    r.setListening(true);
    nav.flush();
    expect(r.sent).toEqual(['openView settings']);
  });
});
