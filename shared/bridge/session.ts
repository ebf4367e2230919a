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

/**
 * Whether a URL's host is this machine: 127.0.0.0/8, ::1 or `localhost` (WHATWG URL has
 * already normalised other spellings of an IPv4 address, such as `127.1`, to dotted form).
 */
export const isLoopbackHost = (hostname: string): boolean => {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
};

const signInInput = z
  .strictObject({
    serverUrl,
    email: tokenRequest.shape.email,
    password: tokenRequest.shape.password,
    /**
     * The user's explicit yes to plain http:// to another machine, where the password and the
     * tokens travel in clear. Without it such a URL is refused; loopback needs no yes.
     */
    allowInsecureHttp: z.boolean().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.allowInsecureHttp === true) return;
    const url = URL.parse(input.serverUrl);
    if (url?.protocol === 'http:' && !isLoopbackHost(url.hostname))
      ctx.addIssue({
        code: 'custom',
        path: ['serverUrl'],
        message:
          'http:// to another machine sends your password and tokens in clear: use https://, or allow plain http explicitly',
      });
  });

export const sessionMethods = {
  'session.state': method(noInput, sessionState),
  'session.signIn': method(signInInput, sessionState),
  /** Starts the embedded reference server with the demo seed and signs in its demo user. */
  'session.startDemo': method(noInput, sessionState),
  /** Another org of the same account: its own replica and engine. */
  'session.switchOrg': method(z.strictObject({ orgId: id.min(1) }), sessionState),
  /**
   * Stops the engine, wipes the stored tokens and the account's cached and opened files; the
   * replica and its queued edits (and their staged uploads) stay for the next sign-in.
   */
  'session.signOut': method(noInput, sessionState),
};
