import { z } from 'zod';
import { organization, tokenRequest } from '../api/auth';
import { id, userRef } from '../api/common';
import { method, noInput } from './define';

/** Who is signed in where. Tokens never cross the bridge. */
export const sessionState = z.object({
  signedIn: z.boolean(),
  /** The service's base URL (the embedded demo server's loopback URL in demo mode). */
  serverUrl: z.string().nullable(),
  user: userRef.nullable(),
  organizations: z.array(organization),
  currentOrgId: id.nullable(),
  /** True when the host runs the reference server embedded with the demo seed. */
  demo: z.boolean(),
  /** A first fill of this org's replica is running (see sync.status `bootstrap`). */
  bootstrapping: z.boolean(),
});
export type SessionState = z.infer<typeof sessionState>;

const serverUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2_000);

export const sessionMethods = {
  'session.state': method(noInput, sessionState),
  'session.signIn': method(
    z.strictObject({
      serverUrl,
      email: tokenRequest.shape.email,
      password: tokenRequest.shape.password,
    }),
    sessionState,
  ),
  /** Starts the embedded reference server with the demo seed and signs in its demo user. */
  'session.startDemo': method(noInput, sessionState),
  /** Another org of the same account: its own replica and engine. */
  'session.switchOrg': method(z.strictObject({ orgId: id.min(1) }), sessionState),
  /** Stops the engine and wipes the stored tokens; the replica stays for the next sign-in. */
  'session.signOut': method(noInput, sessionState),
};
