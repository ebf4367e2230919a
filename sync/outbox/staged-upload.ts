import { endpoints } from '../../shared/api/endpoints';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { type StagedFile, stagedFiles } from './files';
import { kindSpec, mutationKindNames } from './types';

/** Kinds sent as multipart uploads: their rows' bodies keep one local id per file. */
const uploadKinds = mutationKindNames
  .filter((k) =>
    Object.keys(kindSpec(k).operations).some(
      (op) => (endpoints as Record<string, { body?: unknown }>)[op]?.body === 'multipart',
    ),
  )
  .map((k) => `'${k}'`)
  .join(', ');

/**
 * The staged copy of the upload still queued that made attachment `localId` (an attachment
 * created offline is opened from it until the server has the bytes), or undefined.
 */
export const stagedUploadOf = (db: Sqlite, localId: number): StagedFile | undefined => {
  const at = stmt(
    db,
    `SELECT o.mutation_id AS mutationId, j.key AS position
       FROM outbox o, json_each(o.body, '$.localIds') j
      WHERE o.kind IN (${uploadKinds}) AND j.value = ?`,
  ).get(localId) as { mutationId: number; position: number } | undefined;
  if (!at) return undefined;
  return stagedFiles(db, at.mutationId).find((f) => f.position === at.position);
};
