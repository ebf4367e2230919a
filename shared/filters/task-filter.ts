/**
 * Task list filters (spec part 4: personal tasks, personal subtasks, project tasks).
 * The parsed form is what `compileTaskFilter` (./sql) understands; semantics are documented there.
 */
import type { CustomFieldCondition } from './custom-fields';
import { type FieldKinds, filterToQuery, makeFilterQuerySchema } from './filter-query';

export type { CustomFieldCondition } from './custom-fields';

export interface TaskFilter {
  /** Case-insensitive substring of the title. */
  title?: string;
  status?: string[];
  priority?: string[];
  tags?: string[];
  creators?: number[];
  owners?: number[];
  /** Epoch ms; matches the same UTC calendar day. */
  startDate?: number;
  dueDate?: number;
  createdTime?: number;
  modifiedTime?: number;
  overdue?: boolean;
  dueDateSet?: boolean;
  pending?: boolean;
  upcoming?: boolean;
  customFields?: CustomFieldCondition[];
}

export const taskFilterKinds: FieldKinds<TaskFilter> = {
  title: 'text',
  status: 'strings',
  priority: 'strings',
  tags: 'strings',
  creators: 'ints',
  owners: 'ints',
  startDate: 'dateTime',
  dueDate: 'dateTime',
  createdTime: 'dateTime',
  modifiedTime: 'dateTime',
  overdue: 'boolean',
  dueDateSet: 'boolean',
  pending: 'boolean',
  upcoming: 'boolean',
  customFields: 'customFields',
};

/** Raw query record -> TaskFilter; unknown keys (page, size, sort...) are ignored. */
export const taskFilterQuerySchema = makeFilterQuerySchema<TaskFilter>(taskFilterKinds);

/** TaskFilter -> query parameters for the HTTP client; parses back to the same filter. */
export function taskFilterToQuery(filter: TaskFilter): Record<string, string | string[]> {
  return filterToQuery(taskFilterKinds, filter);
}
