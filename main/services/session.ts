import { z } from 'zod';
import { organization } from '../../shared/api/auth';
import { userRef } from '../../shared/api/common';
import type { BridgeEvents, SessionState } from '../../shared/bridge';
import { BridgeError } from '../../shared/bridge/define';
import {
  type ApiClient,
  createApiClient,
  createSession,
  isApiClientError,
  type Session,
  type SessionIdentity,
  type SessionTokens,
  signIn,
} from '../../sync/api';
import {
  type EngineDoor,
  type EngineOptions,
  openDoor,
  replicaFilesDir,
  type SyncEngine,
} from '../../sync/door';
import type { EventHub } from '../bridge/events';
import { wipeAccountFiles } from './account-files';
import { replicasDir } from './data-layout';
import { forwardEngineEvent } from './engine-events';
import type { TokenVault } from './token-vault';

export type OpenEngine = (options: EngineOptions) => SyncEngine;

/** The embedded reference server of the demo (main/host/demo-server.ts). */
export interface DemoLauncher {
  /** Starts the server, or answers the running one's base URL. */
  start(): Promise<string>;
  close(): Promise<void>;
}

export const demoAccount = { email: 'demo@example.com', password: 'demo1234' } as const;

/** What the vault holds between launches: the tokens and whom they belong to. */
const storedSession = z.object({
  serverUrl: z.string().url(),
  demo: z.boolean(),
  orgId: z.number().int().min(1),
  user: userRef,
  organizations: z.array(organization),
  tokens: z.object({
    accessToken: z.string().min(1),
    refreshToken: z.string().min(1),
    accessExpiresAt: z.number(),
    refreshExpiresAt: z.number(),
  }),
});
type StoredSession = z.infer<typeof storedSession>;

/** The latest token pair of one session (its `onTokens` writes here). */
interface TokenHolder {
  latest: { tokens: SessionTokens; identity: SessionIdentity } | null;
}

export interface Active {
  serverUrl: string;
  tokens: TokenHolder;
  demo: boolean;
  session: Session;
  client: ApiClient;
  orgId: number;
  userId: number;
  engine: SyncEngine;
  /** The engine's front door: every view, the edit, the status and the controls. */
  door: EngineDoor;
  /** The replica's own folder: its cached attachments and staged upload copies. */
  filesDir: string;
  off: () => void;
}

export interface SessionServiceOptions {
  /** The app's data dir; replicas live in `<dataDir>/replicas`. */
  dataDir: string;
  vault: TokenVault;
  openEngine: OpenEngine;
  hub: EventHub<BridgeEvents>;
  demo?: DemoLauncher;
  /** The service offered at sign-in when none was used yet (WORKTRAY_SERVER). */
  defaultServerUrl?: string | null;
  /** Time between two background pulls, read when an engine opens and on `applyPullInterval`. */
  pullIntervalMs?: () => number;
  /** The clock of the views (overdue, today, running timers). */
  now?: () => number;
  /** Where the UI can fetch an attachment's content (browser mode); absent: it opens the path. */
  attachmentUrl?: (attachmentId: number) => string;
  /** Told about failures nobody awaits (persisting tokens, a bad event payload). */
  onBackgroundError?: (what: string, error: unknown) => void;
}

/**
 * The signed-in session and the engine of its current org. Session changes (sign-in, org
 * switch, sign-out) run one at a time, so two clicks never leave two engines on one replica.
 */
export class SessionService {
  private active: Active | null = null;
  private record: StoredSession | null = null;
  private lastServerUrl: string | null;
  private busy: Promise<unknown> = Promise.resolve();
  private bootstrapping = false;

  constructor(private readonly options: SessionServiceOptions) {
    this.lastServerUrl = options.defaultServerUrl ?? null;
  }

  get current(): Active | null {
    return this.active;
  }

  /** The active session, or a `not-signed-in` bridge error. */
  require(): Active {
    if (!this.active)
      throw new BridgeError({
        code: 'not-signed-in',
        message: 'sign in first (or start the demo)',
      });
    return this.active;
  }

  state(): SessionState {
    const a = this.active;
    return {
      signedIn: a !== null,
      serverUrl: a?.serverUrl ?? this.lastServerUrl,
      user: a?.session.user ?? null,
      organizations: a ? [...a.session.organizations] : [],
      currentOrgId: a?.orgId ?? null,
      demo: a?.demo ?? false,
      bootstrapping: a !== null && a.door.status().bootstrap !== null,
    };
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.busy.then(fn, fn);
    this.busy = run.catch(() => undefined);
    return run;
  }

  private background(what: string, error: unknown) {
    this.options.onBackgroundError?.(what, error);
  }

  private changed() {
    this.options.hub.emit('session.changed', this.state());
  }

  signIn(serverUrl: string, email: string, password: string): Promise<SessionState> {
    return this.serial(() => this.signInNow(serverUrl, email, password, false));
  }

  startDemo(): Promise<SessionState> {
    return this.serial(async () => {
      const demo = this.options.demo;
      if (!demo)
        throw new BridgeError({ code: 'rejected', message: 'the demo is not available here' });
      const url = await demo.start();
      return this.signInNow(url, demoAccount.email, demoAccount.password, true);
    });
  }

  switchOrg(orgId: number): Promise<SessionState> {
    return this.serial(async () => {
      const a = this.require();
      if (!a.session.organizations.some((o) => o.orgId === orgId))
        throw new BridgeError({
          code: 'not-found',
          message: `you are not a member of org ${orgId}`,
          fieldErrors: [{ field: 'orgId', message: 'not one of your organizations' }],
        });
      if (orgId === a.orgId) return this.state();
      await this.deactivate();
      this.activate(a.session, a.tokens, a.serverUrl, a.demo, a.client.forOrg(orgId));
      await this.persist();
      this.changed();
      return this.state();
    });
  }

  signOut(): Promise<SessionState> {
    return this.serial(async () => {
      const a = this.active;
      await this.deactivate();
      if (a) {
        // Ends the session on the server too: a copy of the tokens is worth nothing after.
        await a.session.revoke();
        await a.client.close();
      }
      this.record = null;
      await this.options.vault.clear();
      if (a) {
        const account = { serverUrl: a.client.baseUrl.origin, userId: a.userId };
        await wipeAccountFiles(replicasDir(this.options.dataDir), account).catch((error) =>
          this.background('removing the signed-out account’s files failed', error),
        );
      }
      this.changed();
      return this.state();
    });
  }

  /** The running engine's pulls follow `pullIntervalMs` as it reads now (a setting changed). */
  applyPullInterval(): void {
    const interval = this.options.pullIntervalMs;
    if (interval) this.active?.door.setPullInterval(interval());
  }

  /** Resumes the session of the last launch from the vault; false when there is none. */
  resume(): Promise<boolean> {
    return this.serial(async () => {
      const secret = await this.options.vault.read();
      if (secret === null) return false;
      let parsed: StoredSession;
      try {
        parsed = storedSession.parse(JSON.parse(secret));
      } catch (error) {
        this.background('stored session unreadable; signed out', error);
        await this.options.vault.clear();
        return false;
      }
      let serverUrl = parsed.serverUrl;
      if (parsed.demo) {
        if (!this.options.demo) return false;
        serverUrl = await this.options.demo.start();
      }
      this.record = { ...parsed, serverUrl };
      // Our own demo server and its known account: a dead refresh token is no reason to ask.
      if (parsed.demo && parsed.tokens.refreshExpiresAt <= Date.now()) {
        await this.signInNow(serverUrl, demoAccount.email, demoAccount.password, true);
        return true;
      }
      const holder: TokenHolder = {
        latest: {
          tokens: parsed.tokens,
          identity: { user: parsed.user, organizations: parsed.organizations },
        },
      };
      const session = createSession(serverUrl, {
        tokens: parsed.tokens,
        user: parsed.user,
        organizations: parsed.organizations,
        onTokens: (tokens, identity) => this.onTokens(holder, tokens, identity),
        onSignedOut: () => this.onSignedOut(holder),
      });
      const client = createApiClient({ baseUrl: serverUrl, orgId: parsed.orgId, session });
      this.activate(session, holder, serverUrl, parsed.demo, client);
      this.changed();
      return true;
    });
  }

  /** Stops the engine (the replica file stays) and ends the HTTP pool. */
  async close(): Promise<void> {
    await this.serial(async () => {
      const a = this.active;
      await this.deactivate();
      await a?.client.close();
    });
  }

  private async signInNow(
    serverUrl: string,
    email: string,
    password: string,
    demo: boolean,
  ): Promise<SessionState> {
    let session: Session;
    const holder: TokenHolder = { latest: null };
    try {
      session = await signIn(serverUrl, email, password, {
        onTokens: (tokens, identity) => this.onTokens(holder, tokens, identity),
        onSignedOut: () => this.onSignedOut(holder),
      });
    } catch (error) {
      if (isApiClientError(error) && error.kind === 'auth')
        throw new BridgeError({ code: 'unauthorized', message: 'wrong email or password' });
      throw error;
    }
    const orgs = session.organizations;
    const previous = this.record?.serverUrl === serverUrl ? this.record.orgId : null;
    const orgId = orgs.find((o) => o.orgId === previous)?.orgId ?? orgs[0]?.orgId;
    if (orgId === undefined || !session.user) {
      session.signOut();
      await session.close();
      throw new BridgeError({
        code: 'rejected',
        message: 'this account belongs to no organization',
      });
    }
    const old = this.active;
    await this.deactivate();
    if (old) await old.client.close();
    const client = createApiClient({ baseUrl: serverUrl, orgId, session });
    this.activate(session, holder, serverUrl, demo, client);
    this.lastServerUrl = demo ? this.lastServerUrl : serverUrl;
    await this.persist();
    this.changed();
    return this.state();
  }

  private activate(
    session: Session,
    tokens: TokenHolder,
    serverUrl: string,
    demo: boolean,
    client: ApiClient,
  ) {
    const userId = session.user?.userId;
    if (userId === undefined) throw new Error('a signed-in session always knows its user');
    const engineDir = replicasDir(this.options.dataDir);
    const engine = this.options.openEngine({
      dataDir: engineDir,
      client,
      userId,
      ...(this.options.pullIntervalMs ? { pullIntervalMs: this.options.pullIntervalMs() } : {}),
    });
    const filesDir = replicaFilesDir(engineDir, {
      serverUrl: client.baseUrl.origin,
      userId,
      orgId: client.orgId,
    });
    const door = openDoor(engine, {
      userId,
      filesDir,
      ...(this.options.now ? { now: this.options.now } : {}),
      ...(this.options.attachmentUrl ? { attachmentUrl: this.options.attachmentUrl } : {}),
    });
    const off = door.on((event) => {
      try {
        forwardEngineEvent(this.options.hub, event);
        if (event.type === 'status') {
          const now = event.status.bootstrap !== null;
          if (now !== this.bootstrapping) {
            this.bootstrapping = now;
            this.changed();
          }
        }
      } catch (error) {
        this.background(`engine event ${event.type}`, error);
      }
    });
    this.active = {
      serverUrl,
      tokens,
      demo,
      session,
      client,
      orgId: client.orgId,
      userId,
      engine,
      door,
      filesDir,
      off,
    };
    this.bootstrapping = door.status().bootstrap !== null;
    door.start();
  }

  private async deactivate() {
    const a = this.active;
    if (!a) return;
    this.active = null;
    a.off();
    await a.door.close();
  }

  /**
   * The server refused the session's refresh token (expired, revoked). The demo signs in to its
   * embedded server again, in the same org and on the same replica (queued edits go on); a
   * real service's session stays until the user signs in again.
   */
  private onSignedOut(holder: TokenHolder) {
    if (this.active?.tokens !== holder || !this.active.demo) return;
    const demo = this.options.demo;
    if (!demo) return;
    this.serial(async () => {
      // Signed out, switched or signed in again meanwhile: that session is no longer ours.
      if (this.active?.tokens !== holder) return;
      const url = await demo.start();
      await this.signInNow(url, demoAccount.email, demoAccount.password, true);
    }).catch((error: unknown) => this.background('signing in to the demo again failed', error));
  }

  /** A sign-in's first pair waits for `persist` (the org is not chosen yet); refreshes save at once. */
  private async onTokens(holder: TokenHolder, tokens: SessionTokens, identity: SessionIdentity) {
    holder.latest = { tokens, identity };
    if (this.active?.tokens === holder) await this.persist();
  }

  private async persist() {
    const a = this.active;
    const latest = a?.tokens.latest;
    if (!a || !latest?.identity.user) return;
    this.record = {
      serverUrl: a.serverUrl,
      demo: a.demo,
      orgId: a.orgId,
      user: latest.identity.user,
      organizations: [...latest.identity.organizations],
      tokens: latest.tokens,
    };
    try {
      await this.options.vault.write(JSON.stringify(this.record));
    } catch (error) {
      this.background('saving the session failed', error);
    }
  }
}
