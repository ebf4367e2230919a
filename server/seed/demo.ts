import type { ServerDeps } from '../deps';

// Being written: replaced by the demo data set.
export const seedDemo = (_deps: ServerDeps): string => 'demo seed not written yet';
