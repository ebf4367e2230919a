import type { ServerDeps } from '../deps';

// Being written: replaced by the bench data set.
export const seedBench = (_deps: ServerDeps, _tasks: number): string => 'bench seed not written yet';
