import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './builder-config';

/** Node's lookup of package `name` from the app folder `dir`: the nearest node_modules. */
const packageDirOf = (name: string, dir: string): string | null => {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name);
    if (existsSync(path.join(root, candidate, 'package.json'))) return candidate;
    if (at === '.' || at === path.dirname(at)) return null;
  }
};

/**
 * The packages of this repository's node_modules that `names` pull in, each as its folder
 * relative to the repository (`node_modules/<name>`, nested ones under their parent): the
 * packages themselves and their production dependencies, theirs too.
 */
export const packageClosure = (names: readonly string[]): Set<string> => {
  const seen = new Set<string>();
  const visit = (dir: string, deps: readonly string[]) => {
    for (const name of deps) {
      const found = packageDirOf(name, dir);
      if (found === null || seen.has(found)) continue;
      seen.add(found);
      const pkg = JSON.parse(readFileSync(path.join(root, found, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        optionalDependencies?: Record<string, string>;
      };
      visit(found, Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }));
    }
  };
  visit('.', names);
  return seen;
};
