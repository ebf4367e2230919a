/**
 * 0010: what a queued edit means, beyond its request.
 * - `edited`: the fields the user changed with this row (its updates coalesced into it), each
 *   with when, on this machine's clock: `{"priority": 1764150000123}`. The rebase keeps the
 *   user's value of exactly these fields on top of the server's, and tells the user's edit of
 *   a field from the server's later change of it (sync/edits/rebase.ts). Rows queued before
 *   this migration have none: the rebase then reads the fields off the row's base, as before.
 * - `sent_at`: when the row first went out (this machine's clock): a lost create is looked for
 *   only among entities made since then (sync/outbox/reconcile.ts).
 * - `outbox_notices`: what the sync panel must tell the user about edits that were sent (a
 *   create made again because its first answer was lost and its twin could not be told apart).
 * Outbox data: survives a re-bootstrap like the rows.
 */
export const up = `
ALTER TABLE outbox ADD COLUMN edited TEXT CHECK (edited IS NULL OR json_valid(edited));
ALTER TABLE outbox ADD COLUMN sent_at INTEGER;
CREATE TABLE outbox_notices (
  notice_id INTEGER PRIMARY KEY AUTOINCREMENT,
  entity TEXT NOT NULL,
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
`;
