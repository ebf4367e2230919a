/**
 * Id lists bound as one JSON array, so a statement's text does not change with the number of
 * ids and its prepared statement is reused.
 */

/** An id list as one bound parameter: `x IN (SELECT value FROM json_each(?))`. */
export const idsJson = (ids: Iterable<number | null | undefined>): string =>
  JSON.stringify([...new Set([...ids].filter((v): v is number => typeof v === 'number'))]);

export const IN_JSON = '(SELECT value FROM json_each(?))';
