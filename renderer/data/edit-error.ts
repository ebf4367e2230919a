import { isBridgeError } from '../../shared/bridge';

/** Fields named as a person would (the last part of the path the schema reports). */
const fieldNames: Record<string, string> = {
  taskTitle: 'title',
  dueDate: 'due date',
  startDate: 'start date',
  fileName: 'file name',
  spaceName: 'space name',
  projectName: 'project name',
};

const fieldWords = (path: string) => {
  const last = path.split('.').pop() ?? path;
  return fieldNames[last] ?? last.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
};

/** A refused edit in plain words: which field, and what is wrong with it. */
export function editErrorWords(error: unknown): string {
  if (!isBridgeError(error)) return error instanceof Error ? error.message : String(error);
  const first = error.fieldErrors?.[0];
  if (!first) return error.message;
  const field = `The ${fieldWords(first.field)}`;
  const max = first.message.match(/Too big: expected string to have <=(\d+)/);
  if (max) return `${field} is longer than ${max[1]} characters.`;
  if (/must not be blank|Too small: expected string to have >=1 /.test(first.message))
    return `${field} cannot be empty.`;
  return `${field}: ${first.message}.`;
}
