import { z } from 'zod';

/**
 * How the bridge is described: a method is a pair of zod schemas (what the UI sends, what the
 * host answers), an event is one payload schema. Both sides parse against the same schemas, so
 * a transport (Electron IPC, HTTP + SSE) carries plain JSON and never decides what is valid.
 */
export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
}

export const method = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
): MethodSpec<I, O> => ({ input, output });

/** The input of a method that takes nothing: `{}` (extra keys refused, so a typo is seen). */
export const noInput = z.strictObject({});

export type Contract = Record<string, MethodSpec>;
export type EventContract = Record<string, z.ZodType>;

/** Why a call failed, in words a UI can show; `code` says which kind of failure it is. */
export const bridgeErrorCodes = [
  /** The input did not match the method's schema (fieldErrors say where). */
  'invalid-input',
  /** The host produced an answer its own schema refuses: a bug on the host side. */
  'invalid-output',
  'unknown-method',
  /** The caller is not allowed (wrong origin, missing secret). */
  'forbidden',
  /** The method needs a signed-in session. */
  'not-signed-in',
  /** The server refused the credentials. */
  'unauthorized',
  'not-found',
  /** The server could not be reached and nothing cached answers. */
  'offline',
  /** The server refused the request (validation, permission, conflict). */
  'rejected',
  'internal',
] as const;
export const bridgeErrorCode = z.enum(bridgeErrorCodes);
export type BridgeErrorCode = z.infer<typeof bridgeErrorCode>;

export const bridgeFieldError = z.object({ field: z.string(), message: z.string() });

export const bridgeErrorData = z.object({
  code: bridgeErrorCode,
  message: z.string(),
  fieldErrors: z.array(bridgeFieldError).optional(),
});
export type BridgeErrorData = z.infer<typeof bridgeErrorData>;

/** A failed call as both sides see it: serializable through `toData`, rebuilt by `fromData`. */
export class BridgeError extends Error {
  override readonly name = 'BridgeError';
  readonly code: BridgeErrorCode;
  readonly fieldErrors: BridgeErrorData['fieldErrors'];

  constructor(data: BridgeErrorData) {
    super(data.message);
    this.code = data.code;
    this.fieldErrors = data.fieldErrors;
  }

  toData(): BridgeErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.fieldErrors ? { fieldErrors: this.fieldErrors } : {}),
    };
  }
}

export const isBridgeError = (e: unknown): e is BridgeError => e instanceof BridgeError;

/** What a transport carries back for one call. */
export const bridgeResponse = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: bridgeErrorData }),
]);
export type BridgeResponse = z.infer<typeof bridgeResponse>;

/** A listener of every bridge event: its name and its payload, not yet parsed. */
export type EventCallback = (event: string, payload: unknown) => void;

/**
 * What the Electron preload hands the page through `contextBridge` (main/electron/preload-api.ts
 * makes it, renderer/bridge/transports.ts uses it): raw response envelopes, no Node, no token.
 */
export interface PreloadApi {
  invoke(method: string, input: unknown): Promise<unknown>;
  /** Every event; returns an unsubscribe. */
  on(listener: EventCallback): () => void;
  /** One event of the contract (another name throws); returns an unsubscribe. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}
