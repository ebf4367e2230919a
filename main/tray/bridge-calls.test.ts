import { describe, expect, it } from 'vitest';
import { bridgeEvents, defaultSettings, type Settings } from '../../shared/bridge';
import { createEventHub } from '../bridge/events';
import { followSettings } from './bridge-calls';

describe('followSettings', () => {
  it('applies every settings.changed record, ignores other events, reports a bad payload', () => {
    const listeners = new Set<(event: string, payload: unknown) => void>();
    const hub = createEventHub(bridgeEvents);
    const applied: Settings[] = [];
    const errors: string[] = [];
    const endpoint = {
      subscribe: (l: (event: string, payload: unknown) => void) => {
        listeners.add(l);
        const off = hub.subscribe(l);
        return () => {
          listeners.delete(l);
          off();
        };
      },
    };
    const stop = followSettings(
      endpoint,
      (s) => applied.push(s),
      (m) => errors.push(m),
    );
    const next = { ...defaultSettings, idleMinutes: 12, globalShortcut: 'Alt+F9' };
    hub.emit('settings.changed', next);
    hub.emit('app.navigate', { taskId: 3 });
    // A payload that did not come through the hub (a transport's bug): refused, not applied.
    for (const l of listeners) l('settings.changed', { ...next, idleMinutes: 0 });
    expect(applied).toEqual([next]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^settings.changed of an unknown shape/);

    stop();
    hub.emit('settings.changed', defaultSettings);
    expect(applied).toHaveLength(1);
    expect(listeners.size).toBe(0);
  });
});
