import type { BridgeEvents } from '../../shared/bridge';
import { type EngineEvent, statusView } from '../../sync/door';
import type { EventHub } from '../bridge/events';

/** Forwards the engine's events to the bridge under their contract names. */
export const forwardEngineEvent = (hub: EventHub<BridgeEvents>, event: EngineEvent): void => {
  switch (event.type) {
    case 'status':
      hub.emit('sync.status', statusView(event.status));
      return;
    case 'changed':
      hub.emit('replica.changed', { entities: event.entities, source: event.source });
      return;
    case 'rekeyed':
      hub.emit('entity.rekeyed', { from: event.from, to: event.to });
      return;
    case 'upload-progress':
      hub.emit('upload.progress', {
        mutationId: event.mutationId,
        completedBytes: event.completedBytes,
        totalSize: event.totalSize,
      });
      return;
    case 'pull-progress':
      hub.emit('pull.progress', event.progress);
      return;
    case 'notifications-arrived':
      hub.emit('notifications.arrived', { notificationIds: event.notificationIds });
      return;
    case 'sync-changes':
      hub.emit('sync.changesGrew', {
        unseen: event.unseen,
        latestChangeId: event.latestChangeId,
      });
      return;
  }
};
