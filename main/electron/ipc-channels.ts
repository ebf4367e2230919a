/** The two IPC channels between the preload and the main process; nothing else is listened to. */
export const INVOKE_CHANNEL = 'worktray:invoke';
export const EVENT_CHANNEL = 'worktray:event';
