/**
 * `npm run openapi [-- out.json]`: writes the OpenAPI 3.1 document of /v1, generated from
 * shared/api, to `openapi.json` at the repository root (or to the path given).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi/build-document';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(repoRoot, 'openapi.json'));
const doc = buildOpenApiDocument();
writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`wrote ${out} (${Object.keys(doc.paths ?? {}).length} paths)`);
