import * as m0001 from './0001-replica';
import { serverDataTables as serverDataTables0001 } from './0001-replica';
import * as m0002 from './0002-read-indexes';
import * as m0003 from './0003-space-member-extra';
import * as m0004 from './0004-deferred-search-index';
import * as m0005 from './0005-owner-due';
import * as m0006 from './0006-drop-unused-indexes';
import * as m0007 from './0007-outbox';
import * as m0008 from './0008-tasks-stage';
import * as m0009 from './0009-outbox-refs';
import * as m0010 from './0010-outbox-intents';
import * as m0011 from './0011-history';
import * as m0012 from './0012-sync-changes';

/**
 * Numbered, append-only: never edit a migration that has shipped; add the next one. The
 * replica's version is `PRAGMA user_version` = the number of migrations applied. Queued
 * outbox rows live in the same file and must survive every upgrade.
 */
export const migrations: readonly { name: string; up: string }[] = [
  { name: '0001-replica', up: m0001.up },
  { name: '0002-read-indexes', up: m0002.up },
  { name: '0003-space-member-extra', up: m0003.up },
  { name: '0004-deferred-search-index', up: m0004.up },
  { name: '0005-owner-due', up: m0005.up },
  { name: '0006-drop-unused-indexes', up: m0006.up },
  { name: '0007-outbox', up: m0007.up },
  { name: '0008-tasks-stage', up: m0008.up },
  { name: '0009-outbox-refs', up: m0009.up },
  { name: '0010-outbox-intents', up: m0010.up },
  { name: '0011-history', up: m0011.up },
  { name: '0012-sync-changes', up: m0012.up },
];

/** The tables that hold server data: a re-bootstrap empties exactly these (and the FTS index). */
export const serverDataTables = [...serverDataTables0001, 'tasks_stage'] as const;
