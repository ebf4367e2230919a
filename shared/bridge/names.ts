/**
 * The bridge's method and event names alone, without their schemas: what the Electron preload
 * needs to allow a call through (it stays a few kilobytes instead of carrying zod and the whole
 * contract into the page's privileged script). names.test.ts keeps them equal to the contract.
 */
export const bridgeMethodNameList = [
  'attachments.open',
  'comments.list',
  'customFields.forScope',
  'edits.apply',
  'notifications.list',
  'notifications.unreadCount',
  'projects.board',
  'projects.get',
  'session.signIn',
  'session.signOut',
  'session.startDemo',
  'session.state',
  'session.switchOrg',
  'settings.get',
  'settings.set',
  'spaces.nav',
  'spaces.tree',
  'sync.cancelBootstrap',
  'sync.discard',
  'sync.dismissNotice',
  'sync.now',
  'sync.pause',
  'sync.resolveConflict',
  'sync.resume',
  'sync.retry',
  'sync.status',
  'tasks.detail',
  'tasks.list',
  'tasks.myTasks',
  'tasks.search',
  'tasks.statusCounts',
  'timers.active',
  'timers.recentTasks',
  'timesheet.range',
  'users.list',
] as const;

export const bridgeEventNameList = [
  'app.navigate',
  'entity.rekeyed',
  'notifications.arrived',
  'pull.progress',
  'replica.changed',
  'session.changed',
  'settings.changed',
  'sync.status',
  'upload.progress',
] as const;
