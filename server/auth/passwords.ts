import { randomBytes, type ScryptOptions, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

// N=2^14 keeps a sign-in around 30 ms here while staying well above brute-force comfort.
const params = { N: 16384, r: 8, p: 1 } as const;
const keyLength = 32;

/** scrypt on libuv's thread pool: a sign-in never stalls the server's other requests. */
const scryptAsync = (password: string, salt: Buffer, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

const encode = (salt: Buffer, key: Buffer) =>
  `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;

const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  return encode(salt, await scryptAsync(password, salt, keyLength, params));
};

/**
 * For seeding only, which runs before the server listens (it hashes inside its one
 * transaction). Never on a request: see `verifyPassword`.
 */
export const hashPasswordForSeed = (password: string): string => {
  const salt = randomBytes(16);
  return encode(salt, scryptSync(password, salt, keyLength, params));
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

let dummy: Promise<string> | undefined;
/**
 * A hash to check an unknown email's password against: it costs what a known account's
 * check costs, so the time of a refusal does not tell whether the account exists.
 */
export const dummyPasswordHash = (): Promise<string> => {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
};
