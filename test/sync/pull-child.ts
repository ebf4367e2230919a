// Runs one pull in its own process so that a test can kill it with SIGKILL mid-way.
import { createApiClient, signIn } from '../../sync/api';
import { Replica } from '../../sync/db/replica';
import { pullAll } from '../../sync/engine/pull';

const [url, file, email, password, org, pageSize] = process.argv.slice(2);
if (!url || !file || !email || !password || !org)
  throw new Error('usage: pull-child URL FILE EMAIL PASSWORD ORG [PAGESIZE]');
const session = await signIn(url, email, password);
const client = createApiClient({ baseUrl: url, orgId: Number(org), session });
const replica = Replica.openFile(file);
await pullAll(replica, client, {
  pageSize: Number(pageSize ?? 20),
  onProgress: (p) => process.stdout.write(`${JSON.stringify(p)}\n`),
});
process.stdout.write('done\n');
replica.close();
await client.close();
