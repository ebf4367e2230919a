/**
 * 0006: every index is paid for on each of the 100k writes of a bootstrap. tasks_open_due
 * served "my tasks" before 0005; no query plan uses tasks_modified (the plan test checks that
 * no view falls back to scanning a table).
 */
export const up = `
DROP INDEX tasks_open_due;
DROP INDEX tasks_modified;
`;
