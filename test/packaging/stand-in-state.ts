import type { StandInState } from './electron-stand-in';

/**
 * A fresh record for electron-stand-in.ts: nothing called yet. `app` and `powerMonitor` are set
 * by the stand-in when the bundle loads it.
 */
export const newStandInState = (userData: string, appPath: string): StandInState => ({
  userData,
  appPath,
  calls: [],
  privileged: [],
  protocolHandlers: new Map(),
  ipcHandlers: new Map(),
  permissions: {},
  windows: [],
  sent: [],
  trays: [],
  shortcuts: new Map(),
  notifications: [],
  app: undefined as never,
  powerMonitor: undefined as never,
  dialogAnswer: 0,
  dialogs: [],
  switches: {},
  refuseShortcuts: false,
  ready: () => {},
});
