import { marketingSpace } from './demo-northwind-marketing';
import { operationsSpace } from './demo-northwind-operations';
import { productSpace } from './demo-northwind-product';
import { successSpace } from './demo-northwind-success';
import type { OrgSpec } from './demo-spec';

/** The main demo org: the whole team, four spaces and the demo user's personal tasks. */
export const northwind: OrgSpec = {
  orgId: 1,
  name: 'Northwind Studio',
  members: [
    ['demo', 'Owner'],
    ['maria', 'Admin'],
    ['james', 'Member'],
    ['priya', 'Member'],
    ['tom', 'Member'],
    ['aisha', 'Member'],
    ['lucas', 'Member'],
  ],
  subtaskShare: 0.25,
  subtasksPer: [1, 4],
  spaces: [productSpace, marketingSpace, operationsSpace, successSpace],
  personalTasks: [
    'Prepare slides for the all-hands',
    'Reply to the partnership email',
    'Expense report for March travel',
    'Read the Q2 strategy memo',
    '1:1 prep with Maria',
    'Book flights for the Berlin offsite',
    'Renew conference badge',
    'Review team OKRs',
    'Update my profile photo',
    'Finish the TypeScript course module',
    'Write performance review for James',
    'Sort out the VPN access issue',
    'Clean up shared drive folders',
    'Draft the quarterly newsletter intro',
    'Call the accountant about invoices',
    'Plan the team lunch',
    'Review the vendor contract draft',
    'Set up the new monitor',
    'Back up my laptop',
    'Order a birthday gift for Priya',
    'Update the onboarding doc for new hires',
    'Review pull requests from last week',
    'Submit timesheet',
    'Prepare questions for the board meeting',
    'Try out two note-taking apps',
    'Schedule dentist appointment',
    'Renew the domain name',
    'Summarize customer interview notes',
    'Blog post draft about remote work',
    'Cancel unused SaaS subscriptions',
  ],
};
