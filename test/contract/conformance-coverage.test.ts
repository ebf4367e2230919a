import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpoints, operationIds } from '../../shared/api';

/** Every operation of the table is exercised by the conformance suite, by name or by its path. */
describe('conformance coverage', () => {
  it('names every operation of the endpoint table', () => {
    const dir = join(import.meta.dirname, '../conformance');
    const text = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    const untested = operationIds.filter(
      (id) => !new RegExp(`\\b${id}\\b`).test(text) && !text.includes(endpoints[id].path),
    );
    expect(untested).toEqual([]);
  });
});
