import type { z } from 'zod';
import type { EventContract } from '../../shared/bridge/define';
import { fieldErrorsOf } from './dispatcher';

export type EventListener = (event: string, payload: unknown) => void;

export interface EventHub<E extends EventContract> {
  /** Validates the payload against the event's schema; a bad payload is a host bug and throws. */
  emit<N extends keyof E & string>(event: N, payload: z.input<E[N]>): void;
  subscribe(listener: EventListener): () => void;
}

/** Fans host events out to every transport (IPC, SSE, a worker's port) with checked payloads. */
export const createEventHub = <E extends EventContract>(events: E): EventHub<E> => {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      const schema = events[event];
      if (!schema) throw new Error(`no bridge event named ${event}`);
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        const where = fieldErrorsOf(parsed.error)
          .map((e) => `${e.field || '(payload)'}: ${e.message}`)
          .join('; ');
        throw new Error(`invalid payload for event ${event}: ${where}`);
      }
      for (const listener of [...listeners]) listener(event, parsed.data);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
};
