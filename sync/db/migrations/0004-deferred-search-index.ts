/**
 * 0004: the full-text index can lag behind a bootstrap. While `replica_info.fts_indexed_upto`
 * is set, only tasks with ids up to it are kept in the index by the triggers; the engine
 * indexes the rest in bounded chunks after the bootstrap (sync/db/queries/search-index.ts).
 * Without the key, every task is indexed as it is written, as before.
 */
const upto = `COALESCE((SELECT CAST(value AS INTEGER) FROM replica_info WHERE key = 'fts_indexed_upto'), 9223372036854775807)`;

export const up = `
DROP TRIGGER tasks_fts_insert;
DROP TRIGGER tasks_fts_delete;
DROP TRIGGER tasks_fts_update;
CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks WHEN new.task_id <= ${upto} BEGIN
  INSERT INTO tasks_fts(rowid, title, description) VALUES (new.task_id, new.title, new.description);
END;
CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks WHEN old.task_id <= ${upto} BEGIN
  INSERT INTO tasks_fts(tasks_fts, rowid, title, description) VALUES ('delete', old.task_id, old.title, old.description);
END;
CREATE TRIGGER tasks_fts_update AFTER UPDATE OF title, description ON tasks WHEN old.task_id <= ${upto} BEGIN
  INSERT INTO tasks_fts(tasks_fts, rowid, title, description) VALUES ('delete', old.task_id, old.title, old.description);
  INSERT INTO tasks_fts(rowid, title, description) VALUES (new.task_id, new.title, new.description);
END;
`;
