/**
 * Rules inside sync/ (issue 25, "kinds are declarations; the machinery takes them"):
 * - no import cycle: every static, type-only and dynamic import between sync/ files, relative
 *   paths resolved, makes a graph without a cycle (a DFS finds one and prints it);
 * - an edit kind's module (sync/edits/kinds/<entity>.ts) reaches no other kind's module and
 *   none of the machinery, only its types and the neutral helpers;
 * - an edit kind's names stay in its module: a mutation kind of the kind table ('timer.start')
 *   is named as a string nowhere in sync/ but in its entity's module (sync/edits/kinds/<entity>),
 *   and an operation of the table ('createProjectTask') nowhere in the edit machinery
 *   (sync/edits, sync/outbox) but there either.
 * Each check is first shown to fail on a small made-up tree, then run on the real one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { kindSpec, mutationKindNames } from '../shared/edits/kinds';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface SourceFile {
  /** Repository-relative, forward slashes: `sync/edits/apply.ts`. */
  path: string;
  text: string;
}

/** Proof beside the code: tests and their fixtures (nothing else imports them). */
/** The entity whose edit module a file is (`sync/edits/kinds/timer.ts`: timer). */
const moduleOf = (file: string): string | undefined => {
  const name = /^sync\/edits\/kinds\/([a-z]+)(\/|\.ts$)/.exec(file)?.[1];
  return name && !['index', 'types', 'json'].includes(name) ? name : undefined;
};

const isTest = (file: string) => /(\.test|test-support)\.tsx?$|\/test-support\//.test(file);

const sourceFiles = (dir: string): SourceFile[] =>
  readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((e): SourceFile[] => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    if (!/\.tsx?$/.test(e.name) || isTest(rel)) return [];
    return [{ path: rel, text: readFileSync(path.join(repoRoot, rel), 'utf8') }];
  });

// ---- the import graph ------------------------------------------------------------------------

/** The file a relative specifier names among `known`, or undefined (a package, outside). */
const resolve = (from: string, spec: string, known: ReadonlySet<string>): string | undefined => {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(ts|tsx|js)$/, '');
  return [`${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`].find((c) => known.has(c));
};

/** File → the files of the set it imports (static, `import type`, `export … from`, dynamic). */
const importGraph = (files: readonly SourceFile[]): Map<string, string[]> => {
  const known = new Set(files.map((f) => f.path));
  return new Map(
    files.map((f) => [
      f.path,
      [
        ...new Set(
          ts
            .preProcessFile(f.text, true, true)
            .importedFiles.flatMap((i) => resolve(f.path, i.fileName, known) ?? []),
        ),
      ],
    ]),
  );
};

/** One cycle per strongly connected part the DFS runs into: `[a, b, c, a]`. */
const findCycles = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (node: string): void => {
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (onStack.has(next)) cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    onStack.delete(node);
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) if (!done.has(node)) visit(node);
  return cycles;
};

/** Every file `from` reaches through the graph, itself aside. */
const reach = (graph: ReadonlyMap<string, readonly string[]>, from: string): Set<string> => {
  const seen = new Set<string>();
  const todo = [...(graph.get(from) ?? [])];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f) || f === from) continue;
    seen.add(f);
    todo.push(...(graph.get(f) ?? []));
  }
  return seen;
};

/**
 * What a kind module may reach in sync/edits: the types it is declared with and the neutral
 * helpers (replica reads and writes, the timer record, the base's shape), never the machinery
 * (commit, effects, answers, rebase…) nor another kind's module.
 */
const kindMayReach = new Set(
  [
    'kinds/types',
    'kinds/json',
    'state',
    'base',
    'timers',
    'reopen',
    'write-tasks',
    'write-groups',
  ].map((f) => `sync/edits/${f}.ts`),
);

/** Per kind module, what it reaches in sync/edits beyond `kindMayReach`. */
const kindModuleReach = (graph: ReadonlyMap<string, readonly string[]>): string[] =>
  [...graph.keys()]
    .filter((f) => moduleOf(f) !== undefined && f !== 'sync/edits/kinds/index.ts')
    .flatMap((f) =>
      [...reach(graph, f)]
        .filter((r) => r.startsWith('sync/edits/') && !kindMayReach.has(r))
        .map((r) => `${f} reaches ${r}`),
    );

// ---- kind names ------------------------------------------------------------------------------

/** Every string a file holds: literals, and the literal parts of templates. */
const stringsIn = (file: SourceFile): string[] => {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node))
      found.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false));
  return found;
};

interface KindName {
  name: string;
  /** The entity whose module may name it. */
  entity: string;
  /** A mutation kind (checked in all of sync/) or an operation (in the machinery). */
  what: 'kind' | 'operation';
}

/** The names the kind table gives each entity's edits. */
const kindNames = (): KindName[] =>
  mutationKindNames.flatMap((kind): KindName[] => {
    const { entity, operations } = kindSpec(kind);
    return [
      { name: kind, entity, what: 'kind' },
      ...Object.keys(operations).map((name) => ({ name, entity, what: 'operation' as const })),
    ];
  });

const machinery = (file: string) => /^sync\/(edits|outbox)\//.test(file);

/**
 * Files that still name kinds by design, each with its reason; the test fails when one of them
 * names none any more (so the list only shrinks).
 */
const perKindTables: Readonly<Record<string, string>> = {
  'sync/history/capture.ts': 'how each kind is undone (`family`), a table the types keep whole',
  'sync/history/inverse.ts': 'the inverse command of each kind',
  'sync/history/label.ts': "each kind's words in the history",
  'sync/history/recreate.ts': 'the command that makes each kind again',
  'sync/changes/resolve.ts': "the edit that restores the user's value, per kind",
  'sync/engine/timer-correction.ts': 'the timer correction the engine queues after a replay',
  'sync/engine/clock-step.ts': "timer rows' times moved by a clock step",
  'sync/outbox/reconcile.ts': 'how a lost create of each kind is found on the server',
};

interface Misplaced {
  file: string;
  name: string;
  entity: string;
}

const misplacedKindNames = (
  files: readonly SourceFile[],
  names: readonly KindName[],
): Misplaced[] =>
  files.flatMap((file) => {
    // Each string's words (a name in SQL or prose counts; `timer.stopped` is not `timer.stop`).
    const words = new Set(stringsIn(file).flatMap((t) => t.split(/[^\w.]+/)));
    return names
      .filter(
        (n) =>
          words.has(n.name) &&
          moduleOf(file.path) !== n.entity &&
          (n.what === 'kind' || machinery(file.path)),
      )
      .map((n) => ({ file: file.path, name: n.name, entity: n.entity }));
  });

// ---- the checks ------------------------------------------------------------------------------

describe('the scanner', () => {
  const tree: SourceFile[] = [
    { path: 'sync/edits/a.ts', text: "import { b } from './b';\nexport const a = b;" },
    { path: 'sync/edits/b.ts', text: "import type { C } from './kinds';\nexport const b = 1;" },
    { path: 'sync/edits/kinds/index.ts', text: "export * from '../a';" },
    { path: 'sync/edits/kinds/timer.ts', text: "export const k = 'timer.start';" },
    {
      path: 'sync/outbox/queue.ts',
      // A template's literal parts count: `${x} = 'timer.stop'`.
      text: ['const k = `$', "{x} = 'timer.stop'`; import 'zod';"].join(''),
    },
    { path: 'sync/outbox/words.ts', text: "const k = 'a timer.stopped, xcreateProjectTask';" },
    { path: 'sync/outbox/send.ts', text: "const op = 'createProjectTask';" },
    { path: 'sync/engine/x.ts', text: "const op = 'createProjectTask';" },
  ];

  it('resolves relative imports, type-only and `export from` too, and finds the cycle', () => {
    const graph = importGraph(tree);
    expect(graph.get('sync/edits/b.ts')).toEqual(['sync/edits/kinds/index.ts']);
    expect(findCycles(graph)).toEqual([
      ['sync/edits/a.ts', 'sync/edits/b.ts', 'sync/edits/kinds/index.ts', 'sync/edits/a.ts'],
    ]);
  });

  it('finds a kind module that reaches the machinery or another kind', () => {
    const graph = importGraph([
      ...tree,
      { path: 'sync/edits/kinds/task.ts', text: "import './timer';\nimport '../state';" },
      { path: 'sync/edits/kinds/space.ts', text: "import '../state';\nimport './types';" },
      { path: 'sync/edits/kinds/types.ts', text: '' },
      { path: 'sync/edits/state.ts', text: '' },
    ]);
    expect(kindModuleReach(graph)).toEqual([
      'sync/edits/kinds/task.ts reaches sync/edits/kinds/timer.ts',
    ]);
  });

  it('finds no cycle in a tree without one', () => {
    const graph = importGraph(tree.filter((f) => f.path !== 'sync/edits/kinds/index.ts'));
    expect(findCycles(graph)).toEqual([]);
  });

  it("finds a kind's names outside its module, operations in the machinery only", () => {
    expect(misplacedKindNames(tree, kindNames())).toEqual([
      { file: 'sync/outbox/queue.ts', name: 'timer.stop', entity: 'timer' },
      { file: 'sync/outbox/send.ts', name: 'createProjectTask', entity: 'task' },
    ]);
  });
});

describe('sync/', () => {
  const files = sourceFiles('sync');

  it('has no import cycle', () => {
    const cycles = findCycles(importGraph(files)).map((c) => c.join(' → '));
    expect(cycles).toEqual([]);
  });

  it('has kind modules that reach no other kind and none of the machinery', () => {
    expect(kindModuleReach(importGraph(files))).toEqual([]);
  });

  it("names an edit kind's operations only in its module", () => {
    const found = misplacedKindNames(
      files.filter((f) => !(f.path in perKindTables)),
      kindNames(),
    ).map((m) => `${m.file} names ${m.name} (of sync/edits/kinds/${m.entity})`);
    expect(found).toEqual([]);
  });

  it('keeps only per-kind tables that still name kinds', () => {
    const byPath = new Map(files.map((f) => [f.path, f]));
    const idle = Object.keys(perKindTables).filter((p) => {
      const f = byPath.get(p);
      return !f || misplacedKindNames([f], kindNames()).length === 0;
    });
    expect(idle).toEqual([]);
  });
});
