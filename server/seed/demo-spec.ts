import type { UserKey } from './demo-people';

/**
 * The shape of the demo data set, as plain tables: orgs hold spaces, spaces hold projects, and
 * projects hold task titles. The seeder turns these into rows; the specs themselves are data only.
 */

export type FieldSpec = { name: string; description: string; icon: string } & (
  | { type: 'TEXT'; texts: readonly string[] }
  | { type: 'NUMBER'; min: number; max: number }
  | { type: 'DATE'; fromDays: number; toDays: number }
  | { type: 'DROPDOWN'; options: readonly (readonly [string, string])[] }
  | { type: 'CHECKBOX' }
);

export interface ContactSpec {
  name: string;
  email: string;
  account: string;
  phone: string;
  city: string;
  state: string;
  country: string;
  zipCode: string;
  address: string;
  website: string;
  tags: readonly string[];
}

export type ProjectStatusName = 'Not Started' | 'Active' | 'On Hold' | 'Completed';

export interface ProjectSpec {
  name: string;
  description: string;
  status: ProjectStatusName;
  priority: 'High' | 'Medium' | 'Low';
  health: 'On Track' | 'At Risk' | 'Off Track';
  /** Days from now (negative: in the past). */
  startDays: number;
  dueDays: number;
  isPublic?: boolean;
  /** The first member created the project. */
  members: readonly UserKey[];
  tags: readonly string[];
  contact?: ContactSpec;
  fields?: readonly FieldSpec[];
  tasks: readonly string[];
}

export interface SpaceSpec {
  name: string;
  description: string;
  color: string;
  spaceType: 'PUBLIC' | 'PRIVATE';
  /** The first member created the space. */
  members: readonly UserKey[];
  /** Tags its tasks draw from. */
  taskTags: readonly string[];
  fields: readonly FieldSpec[];
  projects: readonly ProjectSpec[];
}

export interface OrgSpec {
  orgId: number;
  name: string;
  members: readonly (readonly [UserKey, 'Owner' | 'Admin' | 'Member'])[];
  spaces: readonly SpaceSpec[];
  /** Personal tasks of the demo user in this org. */
  personalTasks: readonly string[];
  /** Share of top-level tasks that get subtasks, and how many each. */
  subtaskShare: number;
  subtasksPer: readonly [number, number];
}
