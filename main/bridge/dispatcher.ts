import type { z } from 'zod';
import {
  BridgeError,
  type BridgeErrorData,
  type BridgeResponse,
  type Contract,
} from '../../shared/bridge/define';

/** What an implementation of one method receives and may answer (before output parsing). */
export type Implementation<C extends Contract> = {
  [M in keyof C]: (
    input: z.output<C[M]['input']>,
  ) => z.input<C[M]['output']> | Promise<z.input<C[M]['output']>>;
};

export interface Dispatcher {
  readonly methods: readonly string[];
  /** Never throws: every failure comes back as `{ok: false, error}`, ready to serialize. */
  call(method: string, input: unknown): Promise<BridgeResponse>;
}

export interface DispatcherOptions {
  /** Turns a domain error (an API client's, a replica's) into a bridge error; null: not known. */
  mapError?: (error: unknown) => BridgeErrorData | null;
  /** Told about failures that are the host's fault (invalid output, unexpected throws). */
  onInternalError?: (method: string, error: unknown) => void;
}

/** Zod issues as `{field, message}`, the field a dotted path ('' for the whole input). */
export const fieldErrorsOf = (error: z.ZodError): NonNullable<BridgeErrorData['fieldErrors']> =>
  error.issues.map((issue) => ({
    field: issue.path.map(String).join('.'),
    message: issue.message,
  }));

const describe = (fieldErrors: NonNullable<BridgeErrorData['fieldErrors']>): string =>
  fieldErrors
    .slice(0, 3)
    .map((e) => (e.field ? `${e.field}: ${e.message}` : e.message))
    .join('; ');

/**
 * Binds a contract to its implementation: the input is parsed with the method's schema before
 * the implementation sees it (bad input never reaches it, so it changes nothing), and the
 * answer is parsed with the output schema before it leaves, so the UI can trust both.
 */
export const registerBridge = <C extends Contract>(
  contract: C,
  impl: Implementation<C>,
  options: DispatcherOptions = {},
): Dispatcher => {
  const methods = Object.keys(contract);
  for (const name of methods)
    if (typeof impl[name] !== 'function') throw new Error(`no implementation for ${name}`);

  const failure = (error: BridgeErrorData): BridgeResponse => ({ ok: false, error });

  const asError = (method: string, error: unknown): BridgeErrorData => {
    if (error instanceof BridgeError) return error.toData();
    const mapped = options.mapError?.(error);
    if (mapped) return mapped;
    options.onInternalError?.(method, error);
    return {
      code: 'internal',
      message: `${method} failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  };

  return {
    methods,
    async call(method, input) {
      if (!Object.hasOwn(contract, method))
        return failure({ code: 'unknown-method', message: `no bridge method named ${method}` });
      const spec = contract[method as keyof C] as C[keyof C];
      const parsed = spec.input.safeParse(input ?? {});
      if (!parsed.success) {
        const fieldErrors = fieldErrorsOf(parsed.error);
        return failure({
          code: 'invalid-input',
          message: `invalid input for ${method}: ${describe(fieldErrors)}`,
          fieldErrors,
        });
      }
      let answer: unknown;
      try {
        answer = await impl[method as keyof C](parsed.data as z.output<C[keyof C]['input']>);
      } catch (error) {
        return failure(asError(method, error));
      }
      const out = spec.output.safeParse(answer);
      if (!out.success) {
        options.onInternalError?.(method, out.error);
        const fieldErrors = fieldErrorsOf(out.error);
        return failure({
          code: 'invalid-output',
          message: `${method} produced an answer its schema refuses: ${describe(fieldErrors)}`,
          fieldErrors,
        });
      }
      return { ok: true, value: out.data };
    },
  };
};
