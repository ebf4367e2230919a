/**
 * Offline full-text search over task titles and descriptions (the API has none): the FTS5
 * index `tasks_fts` of 0001 (external content on `tasks`, kept by triggers; unicode61 with
 * diacritics removed, so "cafe" finds "Café").
 *
 * User text never reaches FTS5 syntax: it is cut into words (letters, digits, marks), each
 * word becomes a quoted string, the words are ANDed, and the last one matches as a prefix
 * (search as you type). Quotes, `*`, `:`, `-`, parentheses, AND/OR/NOT/NEAR are just text.
 *
 * Ranking: bm25 with a title hit worth 10 description hits, then the id (large match sets:
 * see searchTasks). The best hits are chosen first, ids and scores only; the summaries and
 * snippets are made for those few afterwards. 0002 gives the index prefix indexes of 1-3
 * characters, for the prefix of the last word.
 */
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { IN_JSON } from './id-list';
import { type TaskScope, taskScopeSql } from './tasks-read';

/** Around each matched word in `snippet`; control characters, so they never clash with text. */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';

/** Beyond this, more words only narrow a search nobody types. */
const MAX_TOKENS = 16;
const SNIPPET_TOKENS = 12;
/** A word of user text: letters, digits and combining marks (unicode61's token characters). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const RANK = 'bm25(10.0, 1.0)';
/** Above this many matches, the whole replica is not ranked (see searchTasks). */
export const RANK_CAP = 3000;

/** The FTS5 query for user text, or null when it holds no word at all. */
export const ftsQuery = (text: string): string | null => {
  const words = text.normalize('NFC').match(WORD);
  if (!words) return null;
  const kept = words.slice(0, MAX_TOKENS);
  return kept
    .map((w, i) => `"${w.replaceAll('"', '""')}"${i === kept.length - 1 ? '*' : ''}`)
    .join(' ');
};

export interface TaskSearchHit {
  taskId: number;
  title: string;
  /** Best matching passage (title or description), words wrapped in HIGHLIGHT_START/END. */
  snippet: string;
  projectId: number | null;
  projectName: string | null;
  parentTaskId: number | null;
  status: string | null;
  completed: boolean;
  /** bm25, lower is better; null when the match set was too large to rank (see below). */
  score: number | null;
}

/** Splits a snippet into plain and highlighted parts, for rendering without HTML. */
export const highlightSegments = (snippet: string): { text: string; hit: boolean }[] => {
  const out: { text: string; hit: boolean }[] = [];
  let hit = false;
  let text = '';
  for (const ch of snippet) {
    if (ch === HIGHLIGHT_START || ch === HIGHLIGHT_END) {
      if (text) out.push({ text, hit });
      text = '';
      hit = ch === HIGHLIGHT_START;
    } else text += ch;
  }
  if (text) out.push({ text, hit });
  return out;
};

/** Case and accent folding close to unicode61 with remove_diacritics 2. */
const fold = (word: string): string => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The query's words, folded; the last one matches as a prefix (as in ftsQuery). */
const queryWords = (text: string): { words: string[]; last: string } => {
  const all = (text.normalize('NFC').match(WORD) ?? []).slice(0, MAX_TOKENS).map(fold);
  return { words: all.slice(0, -1), last: all[all.length - 1] ?? '' };
};

/**
 * The passage to show: the title when a query word is in it, else a window of the
 * description around its first hit; hits wrapped in the markers. Made here rather than by
 * FTS5's snippet(), which needs a MATCH per row and costs a doclist walk for each hit.
 */
const snippetOf = (
  title: string,
  description: string | null,
  q: { words: string[]; last: string },
): string => {
  const isHit = (w: string) => {
    const f = fold(w);
    return q.words.includes(f) || (q.last !== '' && f.startsWith(q.last));
  };
  const mark = (text: string, window: boolean): string | null => {
    const tokens = [...text.matchAll(WORD)];
    const firstHit = tokens.findIndex((m) => isHit(m[0]));
    if (firstHit === -1) return null;
    let from = 0;
    let to = tokens.length;
    if (window && tokens.length > SNIPPET_TOKENS) {
      from = Math.max(0, Math.min(firstHit - 3, tokens.length - SNIPPET_TOKENS));
      to = from + SNIPPET_TOKENS;
    }
    const start = from === 0 ? 0 : (tokens[from]?.index ?? 0);
    const lastToken = tokens[to - 1];
    const end =
      to === tokens.length ? text.length : (lastToken?.index ?? 0) + (lastToken?.[0].length ?? 0);
    let out = from === 0 ? '' : '…';
    let at = start;
    for (const m of tokens.slice(from, to)) {
      if (!isHit(m[0])) continue;
      out += text.slice(at, m.index) + HIGHLIGHT_START + m[0] + HIGHLIGHT_END;
      at = m.index + m[0].length;
    }
    return out + text.slice(at, end) + (to === tokens.length ? '' : '…');
  };
  return mark(title, false) ?? (description ? mark(description, true) : null) ?? title;
};

type Top = { id: number; score: number | null };

/**
 * How a query over tasks_fts is narrowed to a scope. A project's or a task's subtasks are few:
 * their ids are collected once (index) and each match is checked against that small set,
 * instead of reading its wide task row (3-7x faster when a word matches thousands of tasks).
 * A user's personal tasks may be many: each match is joined to its row and tested.
 */
interface ScopeJoin {
  with: string;
  join: string;
  params: unknown[];
}
const scopeJoin = (scope: TaskScope): ScopeJoin => {
  if (scope.kind === 'all') return { with: '', join: '', params: [] };
  const where = taskScopeSql(scope);
  return scope.kind === 'personal'
    ? {
        with: '',
        join: `JOIN tasks t ON t.task_id = tasks_fts.rowid AND (${where.sql})`,
        params: where.params,
      }
    : {
        with: `WITH s(id) AS MATERIALIZED (SELECT t.task_id FROM tasks t WHERE ${where.sql}) `,
        join: 'CROSS JOIN s ON s.id = tasks_fts.rowid',
        params: where.params,
      };
};

/** Up to `limit` matches in the scope, newest first, those matching in the title first. */
const newestTitleFirst = (db: Sqlite, match: string, scope: ScopeJoin, limit: number): Top[] => {
  // FTS5 walks its doclist backwards by rowid and stops at `limit` hits in the scope.
  const newest = stmt(
    db,
    `${scope.with}SELECT tasks_fts.rowid AS id FROM tasks_fts ${scope.join}
     WHERE tasks_fts MATCH ? ORDER BY tasks_fts.rowid DESC LIMIT ?`,
  );
  const inTitle = newest.all(...scope.params, `{title} : (${match})`, limit) as { id: number }[];
  const seen = new Set(inTitle.map((r) => r.id));
  const rest =
    inTitle.length < limit
      ? (newest.all(...scope.params, match, limit + inTitle.length) as { id: number }[]).filter(
          (r) => !seen.has(r.id),
        )
      : [];
  return [...inTitle, ...rest].slice(0, limit).map((r) => ({ id: r.id, score: null }));
};

/**
 * Tasks matching `text`, best first, at most `limit` (default 20), optionally within one of
 * the list scopes of tasks-read.ts (a project, a user's personal tasks, a task's subtasks).
 *
 * Cost. bm25 is computed for every match before the best are kept, so results are ranked
 * only when the whole replica holds at most RANK_CAP matches (counted first, cheaply, with a
 * LIMIT). A larger match set (the first letter or two typed, a word in every description) is
 * answered by recency instead, title hits first, with `score: null`: for that many hits a
 * bm25 order means little, and the walk stops as soon as `limit` hits are found. A narrow
 * scope with few hits among very many matches still walks them all (a few ms at 50k).
 */
export const searchTasks = (
  db: Sqlite,
  text: string,
  opts: { limit?: number; scope?: TaskScope } = {},
): TaskSearchHit[] => {
  const match = ftsQuery(text);
  if (match === null) return [];
  const limit = Math.max(1, Math.min(opts.limit ?? 20, 200));
  const scope = scopeJoin(opts.scope ?? { kind: 'all' });
  const { n } = stmt(
    db,
    'SELECT COUNT(*) AS n FROM (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ? LIMIT ?)',
  ).get(match, RANK_CAP + 1) as { n: number };
  if (n === 0) return [];
  const top: Top[] =
    n > RANK_CAP
      ? newestTitleFirst(db, match, scope, limit)
      : (stmt(
          db,
          `${scope.with}SELECT tasks_fts.rowid AS id, tasks_fts.rank AS score FROM tasks_fts ${scope.join}
           WHERE tasks_fts MATCH ? AND tasks_fts.rank MATCH '${RANK}'
           ORDER BY tasks_fts.rank, tasks_fts.rowid LIMIT ?`,
        ).all(...scope.params, match, limit) as Top[]);
  if (top.length === 0) return [];
  const details = stmt(
    db,
    `SELECT t.task_id AS id, t.title, t.description, t.project_id, p.project_name, t.parent_task_id, t.status, t.completed
     FROM tasks t LEFT JOIN projects p ON p.project_id = t.project_id
     WHERE t.task_id IN ${IN_JSON}`,
  ).all(JSON.stringify(top.map((h) => h.id))) as {
    id: number;
    title: string;
    description: string | null;
    project_id: number | null;
    project_name: string | null;
    parent_task_id: number | null;
    status: string | null;
    completed: number;
  }[];
  const words = queryWords(text);
  const byId = new Map(details.map((d) => [d.id, d]));
  return top.flatMap((h): TaskSearchHit[] => {
    const d = byId.get(h.id);
    if (!d) return [];
    return [
      {
        taskId: d.id,
        title: d.title,
        snippet: snippetOf(d.title, d.description, words),
        projectId: d.project_id,
        projectName: d.project_name,
        parentTaskId: d.parent_task_id,
        status: d.status,
        completed: d.completed === 1,
        score: h.score,
      },
    ];
  });
};
