import type { z } from 'zod';
import { activityMethods } from './activity';
import { appMethods } from './app';
import { changeMethods } from './changes';
import type { Contract } from './define';
import { editMethods } from './edits';
import { bridgeEvents } from './events';
import { historyMethods } from './history';
import { projectMethods } from './projects';
import { sessionMethods } from './session';
import { settingsMethods } from './settings';
import { spaceMethods } from './spaces';
import { syncMethods } from './sync';
import { taskMethods } from './tasks';

/**
 * The bridge between the UI and the host: method name (`domain.verb`) → {input, output}, and
 * event name → payload. The UI (renderer) and the host (main) both parse against these.
 */
export const bridgeContract = {
  ...sessionMethods,
  ...syncMethods,
  ...changeMethods,
  ...editMethods,
  ...historyMethods,
  ...taskMethods,
  ...projectMethods,
  ...spaceMethods,
  ...activityMethods,
  ...settingsMethods,
  ...appMethods,
} satisfies Contract;

export type BridgeContract = typeof bridgeContract;
export type BridgeMethod = keyof BridgeContract;
/** What the caller may send (defaults not yet applied). */
export type BridgeInput<M extends BridgeMethod> = z.input<BridgeContract[M]['input']>;
/** What the implementation receives (parsed, defaults applied). */
export type BridgeParsedInput<M extends BridgeMethod> = z.output<BridgeContract[M]['input']>;
export type BridgeOutput<M extends BridgeMethod> = z.output<BridgeContract[M]['output']>;

export type BridgeEvents = typeof bridgeEvents;
export type BridgeEventName = keyof BridgeEvents;
export type BridgeEventPayload<E extends BridgeEventName> = z.output<BridgeEvents[E]>;

export const bridgeMethodNames = Object.keys(bridgeContract) as BridgeMethod[];
export const bridgeEventNames = Object.keys(bridgeEvents) as BridgeEventName[];

/** What the UI holds: the same shape over Electron IPC (preload) and browser mode (HTTP + SSE). */
export interface BridgeClient {
  invoke<M extends BridgeMethod>(method: M, input: BridgeInput<M>): Promise<BridgeOutput<M>>;
  on<E extends BridgeEventName>(
    event: E,
    listener: (payload: BridgeEventPayload<E>) => void,
  ): () => void;
}

export * from './activity';
export * from './app';
export * from './changes';
export * from './common';
export * from './define';
export * from './edits';
export * from './events';
export * from './history';
export * from './projects';
export * from './session';
export * from './settings';
export * from './spaces';
export * from './sync';
export * from './tasks';
