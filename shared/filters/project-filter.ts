/**
 * Project list filters (spec part 4, getAll_2). The parsed form is what
 * `compileProjectFilter` (./sql) understands; semantics are documented there.
 */
import { type FieldKinds, filterToQuery, makeFilterQuerySchema } from './filter-query';

export interface ProjectFilter {
  /** Case-insensitive substring of the project name. */
  title?: string;
  status?: string[];
  priority?: string[];
  health?: string[];
  tags?: string[];
  creators?: number[];
  members?: number[];
  /** Epoch ms; matches the same UTC calendar day. */
  startDate?: number;
  dueDate?: number;
  createdTime?: number;
  modifiedTime?: number;
  overdue?: boolean;
  isPublic?: boolean;
  dueDateSet?: boolean;
  pending?: boolean;
  upcoming?: boolean;
}

export const projectFilterKinds: FieldKinds<ProjectFilter> = {
  title: 'text',
  status: 'strings',
  priority: 'strings',
  health: 'strings',
  tags: 'strings',
  creators: 'ints',
  members: 'ints',
  startDate: 'dateTime',
  dueDate: 'dateTime',
  createdTime: 'dateTime',
  modifiedTime: 'dateTime',
  overdue: 'boolean',
  isPublic: 'boolean',
  dueDateSet: 'boolean',
  pending: 'boolean',
  upcoming: 'boolean',
};

/** Raw query record -> ProjectFilter; unknown keys (page, size, sort...) are ignored. */
export const projectFilterQuerySchema = makeFilterQuerySchema<ProjectFilter>(projectFilterKinds);

/** ProjectFilter -> query parameters for the HTTP client; parses back to the same filter. */
export function projectFilterToQuery(filter: ProjectFilter): Record<string, string | string[]> {
  return filterToQuery(projectFilterKinds, filter);
}
