/**
 * Enforces ../shared/design.md's "who may import whom" table with a small import scanner: every
 * .ts/.tsx file's static imports, `export … from` and dynamic `import('…')` (found by the
 * TypeScript pre-processor, so comments and strings are not mistaken for imports) are checked
 * against the rules of the folder the file lives in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Layer = 'shared' | 'sync' | 'main' | 'renderer' | 'server';

interface Rule {
  /** Our folders this layer may import from. */
  local: readonly string[];
  /** Packages it may import: all, or only those listed. */
  packages: 'any' | readonly string[];
  /** Packages it must never import (checked after `packages`). */
  forbidden?: readonly string[];
  /** May it use Node builtins (`node:fs`, `fs`)? */
  builtins: boolean;
  /**
   * Folders of `local` reached only through these entry points (a folder's index or one
   * module), by tests too only where `testsToo` is set.
   */
  doors?: Readonly<Record<string, readonly string[]>>;
}

/** ../shared/design.md, "Layers and who may import whom". test/, bench/, scripts/ and root files: anything. */
const rules: Record<Layer, Rule> = {
  shared: { local: ['shared'], packages: ['zod'], builtins: false },
  sync: { local: ['shared', 'sync'], packages: 'any', builtins: true },
  // The host reaches the engine through its front door (views, edits, status, control; its
  // light entry `paths` for the Electron main process, which must not load SQLite) and the
  // API client it signs in with; the replica's tables and the outbox stay behind them.
  main: {
    local: ['shared', 'sync', 'main'],
    packages: 'any',
    forbidden: ['better-sqlite3', 'kysely'],
    builtins: true,
    doors: { sync: ['sync/door', 'sync/door/paths', 'sync/api'] },
  },
  renderer: {
    local: ['shared', 'renderer'],
    packages: 'any',
    forbidden: ['undici', 'better-sqlite3', 'electron'],
    builtins: false,
  },
  server: { local: ['shared', 'server'], packages: 'any', builtins: true },
};

/**
 * Imports that break the table on purpose, one line of reason each. The demo default embeds
 * the reference server in the host, behind this one seam (a spawned server/cli.ts would need tsx
 * in a packaged app).
 */
const exceptions: readonly { file: string; specifier: string }[] = [
  { file: 'main/host/demo-server.ts', specifier: '../../server/app' },
];

/**
 * Tests beside the code (`x.test.ts`, `x.db.test.ts`) are proof: they may use any package
 * (vitest, fast-check, better-sqlite3, node:*) but keep their folder's rule for our own code.
 */
const isTestFile = (file: string) => /\.test\.tsx?$/.test(file);

interface SourceFile {
  /** Repository-relative path with forward slashes, e.g. `shared/api/tasks.ts`. */
  path: string;
  text: string;
}

interface Violation {
  file: string;
  specifier: string;
  reason: string;
}

const builtins = new Set(builtinModules);
const packageName = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);

/** Every module specifier the file imports or re-exports, static or dynamic. */
const importsOf = (text: string): string[] =>
  ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);

/** The repository path a relative specifier names, without extension or a trailing `/index`. */
const targetOf = (fromFile: string, spec: string): string =>
  path.posix
    .normalize(path.posix.join(path.posix.dirname(fromFile), spec))
    .replace(/\.(ts|tsx|js|mjs)$/, '')
    .replace(/\/index$/, '');

/** The top-level folder a relative specifier lands in ('' for a root file, '..' outside). */
const folderOf = (fromFile: string, spec: string): string => {
  const target = targetOf(fromFile, spec);
  if (target === '..' || target.startsWith('../')) return '..';
  const parts = target.split('/');
  return parts.length > 1 ? (parts[0] ?? '') : '';
};

const checkFiles = (files: readonly SourceFile[]): Violation[] => {
  const out: Violation[] = [];
  for (const file of files) {
    const layer = file.path.split('/')[0] as Layer;
    const rule = rules[layer];
    if (!rule || !file.path.includes('/')) continue;
    const test = isTestFile(file.path);
    for (const spec of importsOf(file.text)) {
      if (exceptions.some((e) => e.file === file.path && e.specifier === spec)) continue;
      const bad = (reason: string) => out.push({ file: file.path, specifier: spec, reason });
      if (spec.startsWith('.') || spec.startsWith('/')) {
        const folder = spec.startsWith('/') ? '..' : folderOf(file.path, spec);
        const doors = rule.doors?.[folder];
        if (!rule.local.includes(folder))
          bad(
            `${layer}/ may import only ${rule.local.join(', ')}; this reaches ${folder || 'the root'}`,
          );
        else if (doors && !test && !doors.includes(targetOf(file.path, spec)))
          bad(`${layer}/ may reach ${folder}/ only through ${doors.join(', ')}`);
        continue;
      }
      if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(packageName(spec))) {
        if (!rule.builtins && !test) bad(`${layer}/ must not use Node builtins`);
        continue;
      }
      if (test) continue;
      const name = packageName(spec);
      if (rule.packages !== 'any' && !rule.packages.includes(name))
        bad(`${layer}/ may import only the packages ${rule.packages.join(', ')}`);
      else if (rule.forbidden?.includes(name)) bad(`${layer}/ must not import ${name}`);
    }
  }
  return out;
};

/**
 * SQL in a host file: a statement prepared or built (`.prepare(`, `.pragma(`, kysely's
 * `selectFrom(`), or SQL words in a string or template literal (found in the syntax tree, so
 * comments and prose in lower case are not mistaken for it). The replica's SQL lives in sync/.
 */
const SQL_WORDS =
  /\b(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|PRAGMA\s|CREATE\s+(TABLE|INDEX)|json_each\()/;
const SQL_CALLS = new Set([
  'prepare',
  'pragma',
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
]);

const sqlIn = (file: SourceFile): string[] => {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (SQL_WORDS.test(node.text)) found.push(`SQL in a string: ${node.text.slice(0, 40)}`);
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((t) => t.literal.text)].join('?');
      if (SQL_WORDS.test(text)) found.push(`SQL in a template: ${text.slice(0, 40)}`);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      SQL_CALLS.has(node.expression.name.text)
    ) {
      found.push(`a statement built: .${node.expression.name.text}(`);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false));
  return found;
};

/** Host files (tests aside) that hold SQL. */
const hostSql = (files: readonly SourceFile[]): string[] =>
  files
    .filter((f) => f.path.startsWith('main/') && !isTestFile(f.path))
    .flatMap((f) => sqlIn(f).map((why) => `${f.path}: ${why}`));

const skipDirs = new Set(['node_modules', 'dist', 'coverage', 'test-results', '.git', '.data']);

const sourceFiles = (dir = repoRoot): SourceFile[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e): SourceFile[] => {
    const full = path.join(dir, e.name);
    if (e.isDirectory())
      return skipDirs.has(e.name) || e.name.startsWith('.') ? [] : sourceFiles(full);
    if (!/\.(ts|tsx|mts|cts)$/.test(e.name)) return [];
    return [
      {
        path: path.relative(repoRoot, full).split(path.sep).join('/'),
        text: readFileSync(full, 'utf8'),
      },
    ];
  });

describe('layering (../shared/design.md)', () => {
  it('every import follows the table', () => {
    const files = sourceFiles();
    expect(files.some((f) => f.path.startsWith('shared/'))).toBe(true);
    const violations = checkFiles(files).map((v) => `${v.file}: '${v.specifier}': ${v.reason}`);
    expect(violations).toEqual([]);
  });

  it('no SQL in main/: the host asks sync/door', () => {
    const files = sourceFiles();
    expect(files.some((f) => f.path.startsWith('main/services/'))).toBe(true);
    expect(hostSql(files)).toEqual([]);
  });

  it('the SQL check catches statements (self-test on files in memory)', () => {
    const file = (path: string, lines: string[]) => ({ path, text: lines.join('\n') });
    const found = hostSql([
      file('main/a.ts', ["const n = stmt(db, 'SELECT COUNT(*) AS n FROM tasks').get();"]),
      file('main/b.ts', ['const r = db.prepare(`x`).all();']),
      file('main/c.ts', ["const q = qb.selectFrom('tasks').selectAll();"]),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a file under test
      file('main/d.ts', ['const s = `SELECT ${cols} FROM tasks t WHERE ${where}`;']),
      file('main/e.ts', ["const j = `FROM outbox o, json_each(o.body, '$.localIds')`;"]),
      file('main/f.ts', ["db.pragma('data_version');"]),
      file('main/clean.ts', [
        '// SELECT in a comment is prose',
        "const m = 'select a file to open, then update the list';",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a file under test
        'const t = `${n} tasks`;',
        "const r = /^attachments\\/(\\d+)$/.exec('x');",
      ]),
      file('main/ok.test.ts', ["db.prepare('SELECT 1');"]),
      file('sync/db/q.ts', ["stmt(db, 'SELECT 1');"]),
    ]).map((line) => line.split(':')[0]);
    expect(found).toEqual([
      'main/a.ts',
      'main/b.ts',
      'main/c.ts',
      'main/d.ts',
      'main/e.ts',
      'main/f.ts',
    ]);
  });

  it('the scanner catches violations (self-test on files in memory)', () => {
    const files: SourceFile[] = [
      {
        path: 'shared/api/bad.ts',
        text: [
          "import { z } from 'zod';",
          "import { db } from '../../sync/db/replica';",
          "import { readFileSync } from 'node:fs';",
          "import path from 'path';",
          "import type { Dispatcher } from 'undici';",
          "export { x } from '../../server/app';",
          "// import { nope } from '../../main/comment-only';",
          'const s = "import \'../../main/in-a-string\'";',
          "export const later = () => import('../../main/lazy');",
          "import { ok } from '../filters/paging';",
        ].join('\n'),
      },
      {
        path: 'renderer/app.tsx',
        text: [
          "import { ipcRenderer } from 'electron';",
          "import Database from 'better-sqlite3';",
          "import { request } from 'undici/lib/x';",
          "import { svc } from '../main/services';",
          "import { replica } from '../sync/replica';",
          "import { task } from '../shared/api/tasks';",
          "import { create } from 'zustand';",
          "import { z } from 'zod';",
        ].join('\n'),
      },
      {
        path: 'server/app.ts',
        text: "import Fastify from 'fastify';\nexport const x = import('../sync/api/client');",
      },
      { path: 'sync/engine.ts', text: "export * from '../main/settings';\nimport '../shared/x';" },
      {
        path: 'main/host.ts',
        text: "import { a } from '../renderer/ui';\nimport { b } from '../sync/x';",
      },
      {
        path: 'main/services/views.ts',
        text: [
          "import { door } from '../../sync/door';",
          "import { door2 } from '../../sync/door/index';",
          "import { client } from '../../sync/api';",
          "import { spawn } from '../../sync/door/paths';",
          "import { stmt } from '../../sync/db/kysely';",
          "import type { Row } from '../../sync/door/task-views';",
          "import { queue } from '../../sync/outbox';",
          "import Database from 'better-sqlite3';",
          "import { sql } from 'kysely';",
        ].join('\n'),
      },
      {
        path: 'main/services/views.test.ts',
        text: "import { tmp } from '../../sync/test-support/temp-dir';",
      },
      {
        path: 'shared/filters/sql.db.test.ts',
        text: "import Database from 'better-sqlite3';\nimport { it } from 'vitest';\nimport { s } from '../../sync/db';",
      },
      {
        path: 'test/anything.test.ts',
        text: "import { s } from '../server/app';\nimport 'electron';",
      },
      { path: 'scripts/x.ts', text: "import { s } from '../server/app';" },
      { path: 'vitest.config.ts', text: "import { defineConfig } from 'vitest/config';" },
    ];
    const found = checkFiles(files).map((v) => `${v.file} ${v.specifier}`);
    expect(found.sort()).toEqual(
      [
        'shared/api/bad.ts ../../sync/db/replica',
        'shared/api/bad.ts node:fs',
        'shared/api/bad.ts path',
        'shared/api/bad.ts undici',
        'shared/api/bad.ts ../../server/app',
        'shared/api/bad.ts ../../main/lazy',
        'renderer/app.tsx electron',
        'renderer/app.tsx better-sqlite3',
        'renderer/app.tsx undici/lib/x',
        'renderer/app.tsx ../main/services',
        'renderer/app.tsx ../sync/replica',
        'server/app.ts ../sync/api/client',
        'sync/engine.ts ../main/settings',
        'main/host.ts ../renderer/ui',
        'main/host.ts ../sync/x',
        'main/services/views.ts ../../sync/db/kysely',
        'main/services/views.ts ../../sync/door/task-views',
        'main/services/views.ts ../../sync/outbox',
        'main/services/views.ts better-sqlite3',
        'main/services/views.ts kysely',
        'shared/filters/sql.db.test.ts ../../sync/db',
      ].sort(),
    );
  });
});
