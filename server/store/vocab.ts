/**
 * The reference server's vocabularies (contract: "Defaults of the reference server").
 * Names are matched case-insensitively and stored in their canonical spelling.
 */
export const taskStatuses = ['To Do', 'In Progress', 'In Review', 'Done'] as const;
export const taskPriorities = ['Urgent', 'High', 'Medium', 'Low', 'None'] as const;
export const defaultTaskStatus = 'To Do';
export const defaultTaskPriority = 'None';
/** "Done means complete." */
export const isCompleteStatus = (status: string): boolean => status.toLowerCase() === 'done';

export const canonical = (values: readonly string[], name: string): string | undefined =>
  values.find((v) => v.toLowerCase() === name.trim().toLowerCase());

export const defaultProjectStatuses = [
  { name: 'Not Started', color: '#94a3b8', category: 'NOT_STARTED', isDefault: true },
  { name: 'Active', color: '#3b82f6', category: 'ACTIVE', isDefault: false },
  { name: 'On Hold', color: '#f59e0b', category: 'ON_HOLD', isDefault: false },
  { name: 'Completed', color: '#22c55e', category: 'COMPLETED', isDefault: false },
] as const;
export const defaultProjectPriorities = [
  { label: 'High', color: '#ef4444', isDefault: false },
  { label: 'Medium', color: '#f59e0b', isDefault: true },
  { label: 'Low', color: '#22c55e', isDefault: false },
] as const;
export const defaultProjectHealth = [
  { label: 'On Track', color: '#22c55e', isDefault: true },
  { label: 'At Risk', color: '#f59e0b', isDefault: false },
  { label: 'Off Track', color: '#ef4444', isDefault: false },
] as const;
/** A project whose status has this category is complete. */
export const completedProjectCategory = 'COMPLETED';
