import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { replicaFolderName } from '../../sync/door';

/**
 * The parts of a replica's folder that are copies of what the server holds, fetched again on
 * demand: attachment content and the copies the host opened. `outbox-files/` is not among them:
 * it holds the bytes of uploads still queued, which exist nowhere else until they are sent.
 */
const DISPOSABLE = ['attachments', 'opened'] as const;

/**
 * Removes the cached and opened files of one account (server origin, user) from every replica
 * folder it has, one per org, so that a signed-out account leaves no readable copies behind.
 * The replica files stay (queued edits live there) and so do the staged upload files: those of
 * edits still queued are sent after the next sign-in, and orphans are swept by the engine when
 * that replica opens again (telling them apart needs the replica's rows, and another process
 * sharing the folder may be between staging a file and committing its row).
 */
export const wipeAccountFiles = async (
  replicas: string,
  account: { serverUrl: string; userId: number },
): Promise<void> => {
  // Every org's folder of this account shares the name up to the org number.
  const sample = replicaFolderName({ ...account, orgId: 0 });
  const prefix = sample.slice(0, -'0.files'.length);
  const names = await readdir(replicas).catch(() => [] as string[]);
  const ours = names.filter(
    (n) => n.startsWith(prefix) && /^\d+\.files$/.test(n.slice(prefix.length)),
  );
  await Promise.all(
    ours.flatMap((n) =>
      DISPOSABLE.map((sub) => rm(join(replicas, n, sub), { recursive: true, force: true })),
    ),
  );
};
