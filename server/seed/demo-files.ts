import type { UserKey } from './demo-people';

/** The attachment files of the demo seed: real bytes, written to the files directory. */

/** A 1x1 transparent PNG. */
const tinyPng = Buffer.from([
  137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0,
  0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 100, 96, 248, 95, 15, 0, 2, 135,
  1, 128, 235, 71, 186, 146, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
]);

export interface DemoFile {
  fileName: string;
  contentType: string;
  bytes: Buffer;
  /** Where it goes: a top-level task (by title), a project, or the first subtask in a project. */
  on: { task: string } | { project: string } | { subtaskIn: string };
  orgId: number;
  by: UserKey;
}

const text = (s: string) => Buffer.from(s, 'utf8');

export const demoFiles: readonly DemoFile[] = [
  {
    fileName: 'usability-notes.txt',
    contentType: 'text/plain',
    orgId: 1,
    by: 'priya',
    on: { task: 'Usability test with five customers' },
    bytes: text(
      'Usability test - session notes\n\nParticipants: 5 customers (2 admins, 3 members)\n\n' +
        '- 4 of 5 found the new tab bar without help\n- Nobody found the archive action\n' +
        '- Two asked for a dark mode\n\nNext: simplify the overflow menu, retest in two weeks.\n',
    ),
  },
  {
    fileName: 'release-plan.md',
    contentType: 'text/markdown',
    orgId: 1,
    by: 'james',
    on: { task: 'Prepare beta rollout to 10% of users' },
    bytes: text(
      '# Release plan 4.0\n\n| Step | Audience | Date |\n|---|---|---|\n| Internal | staff | week 1 |\n' +
        '| Beta | 10% | week 2 |\n| General | everyone | week 4 |\n\n## Rollback\nFeature flag `redesign_v4` off.\n',
    ),
  },
  {
    fileName: 'campaign-budget.csv',
    contentType: 'text/csv',
    orgId: 1,
    by: 'maria',
    on: { task: 'Campaign budget reconciliation' },
    bytes: text(
      'item,owner,planned_eur,actual_eur\nHero video,Aisha,8000,8450\nPaid search,Tom,5000,4210\n' +
        'Social ads,Aisha,3000,2980\nFlyers,Maria,1200,1175\n',
    ),
  },
  {
    fileName: 'app-icon.png',
    contentType: 'image/png',
    orgId: 1,
    by: 'lucas',
    on: { task: 'Replace icon set with the new brand icons' },
    bytes: tinyPng,
  },
  {
    fileName: 'webhook-payload.json',
    contentType: 'application/json',
    orgId: 1,
    by: 'priya',
    on: { task: 'Integrate the payment provider webhooks' },
    bytes: text(
      `${JSON.stringify(
        {
          type: 'invoice.paid',
          id: 'evt_1042',
          data: { invoice: 'inv_2231', amountCents: 4900, currency: 'EUR' },
        },
        null,
        2,
      )}\n`,
    ),
  },
  {
    fileName: 'brand-guidelines.md',
    contentType: 'text/markdown',
    orgId: 1,
    by: 'maria',
    on: { project: 'Spring Campaign' },
    bytes: text(
      '# Brand guidelines (spring)\n\n- Primary colour: #ec4899\n- Headline font: Inter Bold\n- Tone: warm, short sentences\n',
    ),
  },
  {
    fileName: 'flight-options.txt',
    contentType: 'text/plain',
    orgId: 1,
    by: 'demo',
    on: { task: 'Book flights for the Berlin offsite' },
    bytes: text('Option A: Mon 07:10 -> 09:05, 189 EUR\nOption B: Sun 18:40 -> 20:30, 142 EUR\n'),
  },
  {
    fileName: 'screenshot.png',
    contentType: 'image/png',
    orgId: 1,
    by: 'james',
    on: { subtaskIn: 'Mobile App Redesign' },
    bytes: tinyPng,
  },
  {
    fileName: 'test-protocol.md',
    contentType: 'text/markdown',
    orgId: 2,
    by: 'other',
    on: { task: 'Define test protocol for batch 7' },
    bytes: text(
      '# Test protocol, batch 7\n\n1. Warm up 30 min\n2. Cycle 20-80 C, 12 times\n3. Log every 5 s\n',
    ),
  },
];
