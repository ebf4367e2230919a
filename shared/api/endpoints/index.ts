import { itemEndpoints } from './items';
import { workEndpoints } from './work';

export * from './define';
export { createProjectTaskData } from './work';

/** Every operation of the /v1 contract, keyed by operation id. */
export const endpoints = { ...workEndpoints, ...itemEndpoints } as const;
export type Endpoints = typeof endpoints;
export type OperationId = keyof Endpoints;
export const operationIds = Object.keys(endpoints) as OperationId[];
