/** The service's bound on a task title (`taskTitle` in the /v1 contract: 1 to 500 characters). */
export const TITLE_MAX = 500;

/** What is wrong with a title, in plain words, or null when it can be saved. */
export function titleProblem(text: string): string | null {
  const title = text.trim();
  if (!title) return 'A task needs a title.';
  if (title.length > TITLE_MAX)
    return `A title can be at most ${TITLE_MAX} characters; this one has ${title.length}.`;
  return null;
}
