/**
 * The word lists the demo seed draws from (titles, sentences, checklist items, notes) and the
 * weights of task statuses and priorities. Order matters: the PRNG picks by index.
 */

export const subtaskTitles = [
  'Draft a first version',
  'Review with the team',
  'Get sign-off',
  'Update the documentation',
  'Write tests',
  'Collect requirements',
  'Prepare an estimate',
  'Share for feedback',
  'Address review comments',
  'Check with legal',
  'Create a tracking ticket',
  'Book a meeting',
  'Update the budget sheet',
  'Verify on staging',
  'Send a summary email',
  'Research options',
  'Compare two alternatives',
  'Clean up afterwards',
] as const;

export const descriptionSentences = [
  'Scope and acceptance criteria are in the linked doc.',
  'Blocked until the vendor confirms the numbers.',
  'Keep it small: ship a first version, then iterate.',
  'Follow-up from last week’s review.',
  'Needs a quick sync with the team before we start.',
  'See the attached notes for context.',
  'Customer feedback says this is a top priority.',
  'Estimate is about two days of work.',
  'Track open questions in the comments.',
  'Please tick off the checklist as you go.',
  'Nice to have, not a blocker for the release.',
  'Budget was approved in the last planning meeting.',
] as const;

export const mentionLines = [
  (email: string) => `@${email} can you review this before Friday?`,
  (email: string) => `Pairing with @${email} on this one.`,
  (email: string) => `@${email} has the background here, ask before changing the plan.`,
  (email: string) => `Waiting for input from @${email}.`,
] as const;

export const commentTexts = [
  'I pushed a first draft, feedback welcome.',
  'Can we move this to next week? Waiting on input from finance.',
  'Looks good to me.',
  'Added the numbers to the sheet.',
  'Blocked by the vendor; I will follow up tomorrow.',
  'Done on my side, moving it to review.',
  'Let’s discuss this in Thursday’s sync.',
  'I updated the checklist with the open points.',
  'The customer confirmed the new timeline.',
  'Shared the draft in the team folder.',
  'Found an edge case, details in the attachment.',
  'Great work, thanks!',
] as const;

export const checklistNames = [
  'Confirm scope',
  'Write the draft',
  'Peer review',
  'Update the ticket',
  'Notify stakeholders',
  'Attach screenshots',
  'QA on staging',
  'Update the changelog',
  'Get approval',
  'Archive the old version',
  'Send a summary',
  'Double-check the numbers',
  'Book a room',
  'Share the recording',
  'Add to the roadmap',
] as const;

export const timerNotes = [
  'Focused work session',
  'Call with the client',
  'Review and fixes',
  'Planning',
  'Pairing session',
  'Research',
] as const;

export const personalTags = ['personal', 'admin', 'learning', 'errands', 'team'] as const;
export const tagColors = [
  '#64748b',
  '#3b82f6',
  '#22c55e',
  '#f59e0b',
  '#ef4444',
  '#a855f7',
  '#14b8a6',
] as const;

export const taskStatusWeights = [
  ['To Do', 35],
  ['In Progress', 25],
  ['In Review', 10],
  ['Done', 30],
] as const;
export const taskPriorityWeights = [
  ['Urgent', 8],
  ['High', 22],
  ['Medium', 35],
  ['Low', 20],
  ['None', 15],
] as const;
