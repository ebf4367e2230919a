/**
 * What every conformance suite does around its tests: start the reference server, sign in the
 * users it acts as, and close them all afterwards. Plus arrangements several suites make the
 * same way.
 */
import { afterAll, beforeAll } from 'vitest';
import type { ServerOptions } from '../../server/app';
import type { Db } from '../../server/db/open';
import type { ApiClient } from '../../sync/api';
import { clientFor, type FixtureOrg, type FixtureUser } from '../support/client';
import { type FieldDef, insertCustomField } from '../support/fixtures-work';
import { startTestServer, type TestServer } from '../support/server';

/** Opens one thing a suite acts through (a client, a raw caller) once its server is up. */
export type Opener<T> = (server: TestServer) => Promise<T>;
type Openers = Record<string, Opener<unknown>>;

/** The suite's server and what its openers opened, under the same names. */
export type Suite<O extends Openers> = { server: TestServer } & {
  [K in keyof O]: Awaited<ReturnType<O[K]>>;
};

export const signedIn =
  (user: FixtureUser, org: FixtureOrg): Opener<ApiClient> =>
  (server) =>
    clientFor(server, user, org);

/** Alice and bob in Acme, carol in Globex: whom most suites act as. */
export const aliceBobCarol = {
  alice: signedIn('alice', 'acme'),
  bob: signedIn('bob', 'acme'),
  carol: signedIn('carol', 'globex'),
};

const closable = (value: unknown): value is { close(): Promise<void> } =>
  typeof (value as { close?: unknown } | undefined)?.close === 'function';

/**
 * Registers the beforeAll that starts a server with `options` and opens `openers` in order, and
 * the afterAll that closes them. The answer is filled in by that beforeAll: read it in hooks
 * registered after this call and in tests, not while the suite is being collected.
 */
export const suiteServer = <O extends Openers>(
  openers: O,
  options: Partial<ServerOptions> = {},
): Suite<O> => {
  const suite = {} as Suite<O>;
  const opened: Record<string, unknown> = suite;
  beforeAll(async () => {
    suite.server = await startTestServer(options);
    for (const [name, open] of Object.entries(openers)) opened[name] = await open(suite.server);
  });
  afterAll(async () => {
    const values = Object.keys(openers).map((name) => opened[name]);
    await Promise.all(values.filter(closable).map((value) => value.close()));
    await suite.server?.close();
  });
  return suite;
};

/** A server of its own for one test (one with a quirk, say), alice signed in; closed after. */
export const withOwnServer = async (
  options: Partial<ServerOptions>,
  use: (server: TestServer, alice: ApiClient) => Promise<void>,
): Promise<void> => {
  const server = await startTestServer(options);
  const alice = await clientFor(server, 'alice', 'acme');
  try {
    await use(server, alice);
  } finally {
    await alice.close();
    await server.close();
  }
};

/** A space and projects in it, created through the API; answers their ids in that order. */
export const createSpaceWithProjects = async <Names extends string[]>(
  client: ApiClient,
  spaceName: string,
  ...projectNames: Names
): Promise<{ spaceId: number; projectIds: { [K in keyof Names]: number } }> => {
  const spaceId = (await client.ops.createSpace({ body: { spaceName } })).spaceId;
  const projectIds: number[] = [];
  for (const projectName of projectNames)
    projectIds.push(
      (await client.ops.createProject({ path: { spaceId }, body: { projectName } })).projectId,
    );
  return { spaceId, projectIds: projectIds as { [K in keyof Names]: number } };
};

/** The space fields the work suites set and filter on: Client (text) and Stage (a dropdown). */
export const insertClientAndStage = (
  db: Db,
  base: Omit<FieldDef, 'name' | 'type' | 'options' | 'projectId'>,
): { client: number; stage: number; stageOptions: Record<string, number> } => {
  const client = insertCustomField(db, { ...base, name: 'Client', type: 'TEXT' }).fieldId;
  const stage = insertCustomField(db, {
    ...base,
    name: 'Stage',
    type: 'DROPDOWN',
    options: ['Design', 'Build', 'Ship'],
  });
  return { client, stage: stage.fieldId, stageOptions: stage.options };
};
