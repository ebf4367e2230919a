import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The Electron binary is not installed where the tests run, so only a few thin binding files may
 * load 'electron' at run time (type-only imports are erased and fine). And the one window is
 * made by createMainWindow, so its hardening cannot be bypassed by another `new BrowserWindow`.
 */
const mainDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bindings = [
  'electron/main.ts',
  'electron/preload.ts',
  'electron/tray-binding.ts',
  'electron/updates-binding.ts',
];

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });

/** Static and dynamic imports of `name` that stay at run time. */
const runtimeImports = (file: string, name = 'electron'): { static: number; dynamic: number } => {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const count = { static: 0, dynamic: 0 };
  const visit = (node: ts.Node) => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === name &&
      !node.importClause?.isTypeOnly
    )
      count.static++;
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0]) &&
      node.arguments[0].text === name
    )
      count.dynamic++;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return count;
};

describe('Electron binding files', () => {
  const files = sources(mainDir).map((f) => path.relative(mainDir, f).split(path.sep).join('/'));

  it("only the binding files load 'electron' at run time", () => {
    const loaders = files.filter((f) => {
      const n = runtimeImports(path.join(mainDir, f));
      return n.static + n.dynamic > 0;
    });
    expect(loaders.sort()).toEqual([...bindings].sort());
  });

  it('electron-updater (which loads electron) only by a dynamic import, in one file', () => {
    const loaders = files
      .map((f) => [f, runtimeImports(path.join(mainDir, f), 'electron-updater')] as const)
      .filter(([, n]) => n.static + n.dynamic > 0);
    expect(loaders).toEqual([['electron/electron-updater.ts', { static: 0, dynamic: 1 }]]);
  });

  it('no window is made outside createMainWindow', () => {
    const makers = files.filter((f) =>
      /new\s+BrowserWindow\s*\(/.test(readFileSync(path.join(mainDir, f), 'utf8')),
    );
    expect(makers).toEqual(['electron/window-security.ts']);
  });
});
