import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPassword } from '../auth/passwords';
import type { Db } from '../db/open';
import type { ServerDeps } from '../deps';
import { addOrgMember, createOrg, createUser } from './fixtures';

/**
 * The demo data set (`--seed demo`): two orgs, a team, spaces, projects, ~300 tasks with
 * everything a task can carry. Deterministic: one seeded PRNG drives every choice, and every
 * time is relative to `deps.clock.now()`, so two runs with the same clock give the same rows
 * (password hashes aside: their salts are random).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------------------------
// PRNG

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Up to `n` distinct items, in a random order. */
  sample<T>(items: readonly T[], n: number): T[];
  weighted<T>(choices: readonly (readonly [T, number])[]): T;
}

/** mulberry32: small, fast, good enough for test data. */
export const createRng = (seed: number): Rng => {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    sample: <T>(items: readonly T[], n: number): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, Math.max(0, n));
    },
    weighted: <T>(choices: readonly (readonly [T, number])[]): T => {
      const total = choices.reduce((s, c) => s + c[1], 0);
      let r = next() * total;
      for (const [value, weight] of choices) {
        r -= weight;
        if (r < 0) return value;
      }
      return choices[choices.length - 1]![0];
    },
  };
};

// ---------------------------------------------------------------------------------------------
// People

type UserKey = 'demo' | 'maria' | 'james' | 'priya' | 'tom' | 'aisha' | 'lucas' | 'other';

interface Person {
  key: UserKey;
  firstName: string;
  lastName: string;
  email: string;
  color: string;
}

// Insertion order (and so user ids) is this order.
const people: readonly Person[] = [
  { key: 'demo', firstName: 'Demo', lastName: 'User', email: 'demo@example.com', color: '#6366f1' },
  {
    key: 'maria',
    firstName: 'Maria',
    lastName: 'Garcia',
    email: 'maria.garcia@example.com',
    color: '#ec4899',
  },
  {
    key: 'james',
    firstName: 'James',
    lastName: 'Chen',
    email: 'james.chen@example.com',
    color: '#0ea5e9',
  },
  {
    key: 'priya',
    firstName: 'Priya',
    lastName: 'Patel',
    email: 'priya.patel@example.com',
    color: '#f97316',
  },
  {
    key: 'tom',
    firstName: 'Tom',
    lastName: 'Becker',
    email: 'tom.becker@example.com',
    color: '#14b8a6',
  },
  {
    key: 'aisha',
    firstName: 'Aisha',
    lastName: 'Okafor',
    email: 'aisha.okafor@example.com',
    color: '#a855f7',
  },
  {
    key: 'lucas',
    firstName: 'Lucas',
    lastName: 'Silva',
    email: 'lucas.silva@example.com',
    color: '#84cc16',
  },
  {
    key: 'other',
    firstName: 'Alex',
    lastName: 'Morgan',
    email: 'other@example.com',
    color: '#ef4444',
  },
];

// ---------------------------------------------------------------------------------------------
// The data set, as plain tables

type FieldSpec = { name: string; description: string; icon: string } & (
  | { type: 'TEXT'; texts: readonly string[] }
  | { type: 'NUMBER'; min: number; max: number }
  | { type: 'DATE'; fromDays: number; toDays: number }
  | { type: 'DROPDOWN'; options: readonly (readonly [string, string])[] }
  | { type: 'CHECKBOX' }
);

interface ContactSpec {
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

type ProjectStatusName = 'Not Started' | 'Active' | 'On Hold' | 'Completed';

interface ProjectSpec {
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

interface SpaceSpec {
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

interface OrgSpec {
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

const northwind: OrgSpec = {
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
  spaces: [
    {
      name: 'Product',
      description: 'Everything we build and ship: apps, billing and the public API.',
      color: '#6366f1',
      spaceType: 'PUBLIC',
      members: ['demo', 'james', 'priya', 'lucas', 'maria'],
      taskTags: ['frontend', 'backend', 'mobile', 'bug', 'tech-debt', 'api', 'design'],
      fields: [
        {
          name: 'Story Points',
          description: 'Relative effort',
          icon: 'hash',
          type: 'NUMBER',
          min: 1,
          max: 13,
        },
        {
          name: 'Component',
          description: 'Where the work happens',
          icon: 'layers',
          type: 'DROPDOWN',
          options: [
            ['Frontend', '#3b82f6'],
            ['Backend', '#22c55e'],
            ['Mobile', '#f97316'],
            ['Infrastructure', '#64748b'],
          ],
        },
        {
          name: 'Target Release',
          description: 'Release the work ships in',
          icon: 'calendar',
          type: 'DATE',
          fromDays: -10,
          toDays: 45,
        },
      ],
      projects: [
        {
          name: 'Mobile App Redesign',
          description: 'A fresh look for the iOS and Android apps, built on the new design system.',
          status: 'Active',
          priority: 'High',
          health: 'On Track',
          startDays: -45,
          dueDays: 30,
          members: ['james', 'demo', 'priya', 'lucas'],
          tags: ['mobile', 'design-system', 'q3'],
          fields: [
            {
              name: 'Needs QA',
              description: 'Has to pass a QA round',
              icon: 'check-square',
              type: 'CHECKBOX',
            },
          ],
          tasks: [
            'Audit current navigation patterns',
            'Design new onboarding screens',
            'Build reusable button and input components',
            'Implement dark mode theme tokens',
            'Migrate settings screen to new layout',
            'Usability test with five customers',
            'Fix crash on Android 12 when rotating',
            'Update app store screenshots',
            'Accessibility pass on the home screen',
            'Replace icon set with the new brand icons',
            'Add haptic feedback to primary actions',
            'Profile screen performance on older iPhones',
            'Write release notes for 4.0',
            'Prepare beta rollout to 10% of users',
            'Review analytics events for the new flows',
            'Clean up unused image assets',
            'Empty states for lists and search',
          ],
        },
        {
          name: 'Billing v2',
          description:
            'New plans, proration and invoices; moves every subscription to the new model.',
          status: 'Active',
          priority: 'High',
          health: 'At Risk',
          startDays: -50,
          dueDays: 12,
          members: ['priya', 'demo', 'james', 'maria'],
          tags: ['billing', 'revenue'],
          contact: {
            name: 'Hannah Schmidt',
            email: 'hannah.schmidt@contoso-payments.example.com',
            account: 'Contoso Payments',
            phone: '30 901820',
            city: 'Berlin',
            state: 'Berlin',
            country: 'Germany',
            zipCode: '10115',
            address: 'Invalidenstrasse 117',
            website: 'https://contoso-payments.example.com',
            tags: ['partner', 'payments'],
          },
          fields: [
            {
              name: 'Ticket',
              description: 'Tracker reference',
              icon: 'link',
              type: 'TEXT',
              texts: ['BIL-101', 'BIL-114', 'BIL-127', 'BIL-132', 'BIL-140', 'BIL-158', 'BIL-163'],
            },
          ],
          tasks: [
            'Define the new pricing plan schema',
            'Migrate existing subscriptions to the new model',
            'Integrate the payment provider webhooks',
            'Handle failed payment retries',
            'Build the invoice PDF template',
            'Add proration for mid-cycle plan changes',
            'Tax calculation for EU customers',
            'Admin view for refunds',
            'Load test the billing worker',
            'Email receipts after successful payment',
            'Dunning email sequence',
            'Reconcile ledger totals nightly',
            'Document the billing API for support',
            'Security review of card data flows',
            'Coupon codes for the partner program',
          ],
        },
        {
          name: 'Public API Launch',
          description:
            'Open a documented, versioned API to partners, with keys and a developer portal.',
          status: 'Not Started',
          priority: 'Medium',
          health: 'On Track',
          startDays: 5,
          dueDays: 75,
          members: ['lucas', 'demo', 'james'],
          tags: ['api', 'partners'],
          tasks: [
            'Draft the API versioning policy',
            'Design rate limit headers',
            'Generate the OpenAPI document',
            'Write the getting started guide',
            'Set up the developer portal',
            'Create the API keys management page',
            'Add pagination to list endpoints',
            'Publish the TypeScript client SDK',
            'Sandbox environment for partners',
            'Plan the launch blog post',
            'Collect feedback from three pilot partners',
            'Deprecation notice for the legacy endpoints',
            'Webhook signature verification docs',
          ],
        },
      ],
    },
    {
      name: 'Marketing',
      description: 'Campaigns, the website and events.',
      color: '#ec4899',
      spaceType: 'PUBLIC',
      members: ['maria', 'demo', 'aisha', 'tom'],
      taskTags: ['content', 'social', 'seo', 'design', 'launch', 'video', 'email'],
      fields: [
        {
          name: 'Channel',
          description: 'Main channel of the piece',
          icon: 'radio',
          type: 'DROPDOWN',
          options: [
            ['Email', '#0ea5e9'],
            ['Social', '#ec4899'],
            ['Paid Search', '#f59e0b'],
            ['Events', '#22c55e'],
          ],
        },
        {
          name: 'Budget (EUR)',
          description: 'Planned spend',
          icon: 'euro',
          type: 'NUMBER',
          min: 200,
          max: 12000,
        },
        {
          name: 'Launch Date',
          description: 'When it goes live',
          icon: 'calendar',
          type: 'DATE',
          fromDays: -20,
          toDays: 40,
        },
        {
          name: 'Approved',
          description: 'Signed off by marketing lead',
          icon: 'check-square',
          type: 'CHECKBOX',
        },
      ],
      projects: [
        {
          name: 'Spring Campaign',
          description: 'Integrated campaign for the spring release: video, email, social and paid.',
          status: 'Active',
          priority: 'High',
          health: 'On Track',
          startDays: -40,
          dueDays: 20,
          members: ['maria', 'demo', 'aisha', 'tom'],
          tags: ['campaign', 'q2'],
          contact: {
            name: 'Leo Martin',
            email: 'leo@brightpixel.example.com',
            account: 'Bright Pixel Agency',
            phone: '20 7946 0958',
            city: 'London',
            state: 'England',
            country: 'United Kingdom',
            zipCode: 'EC1V 9HX',
            address: '12 Old Street',
            website: 'https://brightpixel.example.com',
            tags: ['agency'],
          },
          fields: [
            {
              name: 'Asset Type',
              description: 'Kind of deliverable',
              icon: 'image',
              type: 'DROPDOWN',
              options: [
                ['Video', '#ef4444'],
                ['Banner', '#f59e0b'],
                ['Copy', '#3b82f6'],
                ['Print', '#64748b'],
              ],
            },
          ],
          tasks: [
            'Finalize campaign messaging',
            'Brief the design agency',
            'Produce hero video (30s cut)',
            'Write three email newsletters',
            'Schedule social posts for April',
            'Set up paid search ad groups',
            'Landing page copy review',
            'A/B test the signup call to action',
            'Order printed flyers for the trade fair',
            'Coordinate influencer partnerships',
            'Weekly performance report',
            'Retargeting audience setup',
            'Campaign budget reconciliation',
            'Translate assets into German and Spanish',
            'Press release for the spring release',
          ],
        },
        {
          name: 'Website Refresh',
          description: 'New information architecture and copy for the marketing site.',
          status: 'On Hold',
          priority: 'Medium',
          health: 'Off Track',
          startDays: -55,
          dueDays: -3,
          members: ['aisha', 'demo', 'maria'],
          tags: ['website', 'seo'],
          tasks: [
            'Content inventory of the current site',
            'New sitemap and navigation',
            'Homepage wireframes',
            'Rewrite product pages',
            'Migrate blog posts to the new CMS',
            'Set up redirects for changed URLs',
            'Improve Core Web Vitals scores',
            'Cookie consent banner update',
            'Case study page template',
            'Pricing page FAQ',
            'SEO audit of the top 50 pages',
            'Customer logo wall',
          ],
        },
        {
          name: 'Customer Webinars',
          description: 'The Q2 webinar series with customers and guest speakers.',
          status: 'Completed',
          priority: 'Low',
          health: 'On Track',
          startDays: -58,
          dueDays: -6,
          members: ['tom', 'maria', 'demo'],
          tags: ['events'],
          tasks: [
            'Pick topics for the Q2 series',
            'Book guest speakers',
            'Set up registration pages',
            'Dry run with the product team',
            'Send reminder emails',
            'Edit and publish recordings',
            'Follow-up survey',
            'Share attendee list with sales',
            'Write recap blog post',
            'Collect speaker feedback',
          ],
        },
      ],
    },
    {
      name: 'Operations',
      description: 'Office, people and security.',
      color: '#14b8a6',
      spaceType: 'PUBLIC',
      members: ['tom', 'demo', 'aisha', 'james', 'maria'],
      taskTags: ['facilities', 'hiring', 'security', 'finance', 'it', 'legal'],
      fields: [
        {
          name: 'Vendor',
          description: 'Who we work with',
          icon: 'truck',
          type: 'TEXT',
          texts: [
            'Rapid Movers',
            'Deskworks',
            'NetFix IT',
            'CleanCo',
            'Initech Security',
            'Hireline',
            'Office Depot',
          ],
        },
        {
          name: 'Cost (EUR)',
          description: 'Expected cost',
          icon: 'euro',
          type: 'NUMBER',
          min: 50,
          max: 25000,
        },
        {
          name: 'Deadline',
          description: 'Hard external deadline',
          icon: 'calendar',
          type: 'DATE',
          fromDays: -15,
          toDays: 60,
        },
      ],
      projects: [
        {
          name: 'Office Move',
          description: 'Moving the Berlin team to the new floor by the end of the quarter.',
          status: 'Active',
          priority: 'Medium',
          health: 'At Risk',
          startDays: -35,
          dueDays: 25,
          members: ['tom', 'demo', 'aisha'],
          tags: ['office', 'berlin'],
          contact: {
            name: 'Sven Larsson',
            email: 'sven@rapidmovers.example.com',
            account: 'Rapid Movers',
            phone: '30 5557 1234',
            city: 'Berlin',
            state: 'Berlin',
            country: 'Germany',
            zipCode: '10997',
            address: 'Skalitzer Strasse 80',
            website: 'https://rapidmovers.example.com',
            tags: ['vendor'],
          },
          tasks: [
            'Sign the lease for the new floor',
            'Get quotes from three moving companies',
            'Plan the seating chart',
            'Order standing desks',
            'Set up network and Wi-Fi access points',
            'Transfer the internet contract',
            'Label and pack the storage room',
            'Update address on invoices and website',
            'Book the cleaning crew',
            'Organize the welcome breakfast',
            'Return keys for the old office',
            'Install meeting room displays',
            'Bike parking permit',
          ],
        },
        {
          name: 'Hiring Q3',
          description: 'Three engineering hires and one designer before October.',
          status: 'Active',
          priority: 'High',
          health: 'On Track',
          startDays: -30,
          dueDays: 50,
          members: ['aisha', 'demo', 'james', 'tom'],
          tags: ['hiring'],
          fields: [
            {
              name: 'Stage',
              description: 'Hiring pipeline stage',
              icon: 'users',
              type: 'DROPDOWN',
              options: [
                ['Sourcing', '#94a3b8'],
                ['Interviewing', '#3b82f6'],
                ['Offer', '#f59e0b'],
                ['Hired', '#22c55e'],
              ],
            },
          ],
          tasks: [
            'Open the senior backend engineer role',
            'Write the product designer job description',
            'Review the interview scorecards',
            'Schedule onsite interviews',
            'Post roles on job boards',
            'Prepare the take-home exercise',
            'Reference checks for the finalist',
            'Send the offer letter',
            'Plan the onboarding week',
            'Update the careers page',
            'Referral bonus reminder to the team',
            'Order laptops for new hires',
            'Calibrate interview questions',
          ],
        },
        {
          name: 'Security Audit',
          description: 'Get ready for the SOC 2 audit: access reviews, runbooks and drills.',
          status: 'Not Started',
          priority: 'High',
          health: 'On Track',
          startDays: 3,
          dueDays: 90,
          isPublic: false,
          members: ['james', 'tom', 'maria'],
          tags: ['security', 'compliance'],
          tasks: [
            'Inventory all production services',
            'Rotate shared credentials',
            'Enable SSO for internal tools',
            'Review access to the cloud console',
            'Run a dependency vulnerability scan',
            'Write the incident response runbook',
            'Phishing awareness training',
            'Backup restore drill',
            'Collect evidence for the SOC 2 auditor',
            'Penetration test scoping call',
            'Laptop disk encryption check',
          ],
        },
      ],
    },
    {
      name: 'Customer Success',
      description: 'Onboarding, renewals and the voice of the customer.',
      color: '#f59e0b',
      spaceType: 'PUBLIC',
      members: ['maria', 'demo', 'lucas', 'priya'],
      taskTags: ['onboarding', 'renewal', 'enterprise', 'training', 'feedback'],
      fields: [
        {
          name: 'Account',
          description: 'Customer account',
          icon: 'building',
          type: 'TEXT',
          texts: [
            'Contoso',
            'Fabrikam',
            'Initech',
            'Umbrella Corp',
            'Wayne Enterprises',
            'Stark Industries',
            'Tyrell Corp',
          ],
        },
        {
          name: 'ARR (k EUR)',
          description: 'Annual recurring revenue',
          icon: 'trending-up',
          type: 'NUMBER',
          min: 12,
          max: 480,
        },
        {
          name: 'Renewal Date',
          description: 'Contract renewal',
          icon: 'calendar',
          type: 'DATE',
          fromDays: 0,
          toDays: 120,
        },
      ],
      projects: [
        {
          name: 'Onboarding Playbook',
          description: 'A repeatable first 30 days for every new customer.',
          status: 'Active',
          priority: 'Medium',
          health: 'On Track',
          startDays: -25,
          dueDays: 35,
          members: ['lucas', 'demo', 'priya'],
          tags: ['playbook'],
          tasks: [
            'Map the first 30 days of a new customer',
            'Kickoff call template',
            'Record product walkthrough videos',
            'Set up the health score in the CRM',
            'Write the admin setup checklist',
            'Build the onboarding email drip',
            'Define success milestones',
            'Shared Slack channel template',
            'Quarterly business review deck',
            'Gather feedback from recently onboarded customers',
            'Office hours calendar',
          ],
        },
        {
          name: 'Enterprise Renewals',
          description: 'Q3 renewals of the enterprise book, with a focus on multi-year deals.',
          status: 'Active',
          priority: 'High',
          health: 'Off Track',
          startDays: -20,
          dueDays: 40,
          members: ['maria', 'demo', 'lucas'],
          tags: ['renewals', 'enterprise'],
          contact: {
            name: 'Grace Kim',
            email: 'grace.kim@contoso.example.com',
            account: 'Contoso Ltd',
            phone: '206 555 0142',
            city: 'Seattle',
            state: 'WA',
            country: 'United States',
            zipCode: '98101',
            address: '1 Contoso Way',
            website: 'https://contoso.example.com',
            tags: ['enterprise', 'key-account'],
          },
          tasks: [
            'Renewal forecast for Q3',
            'Prepare the Contoso renewal proposal',
            'Executive sponsor check-in with Fabrikam',
            'Usage report for Initech',
            'Negotiate the multi-year discount',
            'Update contract templates',
            'Escalation review with support',
            'Renewal risk list for leadership',
            'Send price increase notices',
            'Close the Umbrella Corp renewal',
            'Champion mapping for Wayne Enterprises',
          ],
        },
      ],
    },
  ],
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

const globex: OrgSpec = {
  orgId: 2,
  name: 'Globex Labs',
  members: [
    ['demo', 'Owner'],
    ['other', 'Admin'],
  ],
  subtaskShare: 0.3,
  subtasksPer: [1, 2],
  spaces: [
    {
      name: 'Research & Development',
      description: 'Prototypes and the lab.',
      color: '#0ea5e9',
      spaceType: 'PUBLIC',
      members: ['other', 'demo'],
      taskTags: ['lab', 'prototype', 'safety', 'procurement', 'data'],
      fields: [
        {
          name: 'Batch',
          description: 'Sample batch',
          icon: 'flask',
          type: 'NUMBER',
          min: 1,
          max: 12,
        },
        {
          name: 'Review Date',
          description: 'Lab review',
          icon: 'calendar',
          type: 'DATE',
          fromDays: -5,
          toDays: 30,
        },
        {
          name: 'Risk',
          description: 'Safety risk level',
          icon: 'alert-triangle',
          type: 'DROPDOWN',
          options: [
            ['Low', '#22c55e'],
            ['Medium', '#f59e0b'],
            ['High', '#ef4444'],
          ],
        },
      ],
      projects: [
        {
          name: 'Prototype X',
          description: 'Second-generation sensor prototype, ready for the steering committee demo.',
          status: 'Active',
          priority: 'High',
          health: 'At Risk',
          startDays: -40,
          dueDays: 21,
          members: ['other', 'demo'],
          tags: ['prototype'],
          tasks: [
            'Define test protocol for batch 7',
            'Calibrate the sensor array',
            'Run thermal stress test',
            'Analyze vibration data',
            'Write interim findings report',
            'Order replacement actuators',
            'Review safety checklist',
            'Update CAD model to rev C',
            'Schedule demo for the steering committee',
            'Compare supplier samples',
            'Document failure modes',
            'Archive raw measurement files',
          ],
        },
        {
          name: 'Lab Equipment Upgrade',
          description: 'Replace the spectrometer and centrifuge; recertify the benches.',
          status: 'Active',
          priority: 'Medium',
          health: 'On Track',
          startDays: -20,
          dueDays: 45,
          members: ['demo', 'other'],
          tags: ['lab', 'capex'],
          contact: {
            name: 'Dr. Ana Costa',
            email: 'ana.costa@spectra-instruments.example.com',
            account: 'Spectra Instruments',
            phone: '21 555 0199',
            city: 'Lisbon',
            state: 'Lisbon',
            country: 'Portugal',
            zipCode: '1100-148',
            address: 'Rua Augusta 45',
            website: 'https://spectra-instruments.example.com',
            tags: ['supplier'],
          },
          tasks: [
            'Get quotes for the new spectrometer',
            'Decommission the old centrifuge',
            'Electrical inspection of bench 3',
            'Train staff on the new fume hood',
            'Update the equipment register',
            'Plan downtime for installation',
            'Dispose of expired reagents',
            'Service contract renewal',
            'Install ventilation sensors',
            'Budget approval from finance',
          ],
        },
      ],
    },
  ],
  personalTasks: [],
};

const subtaskTitles = [
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

const descriptionSentences = [
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

const mentionLines = [
  (email: string) => `@${email} can you review this before Friday?`,
  (email: string) => `Pairing with @${email} on this one.`,
  (email: string) => `@${email} has the background here, ask before changing the plan.`,
  (email: string) => `Waiting for input from @${email}.`,
] as const;

const commentTexts = [
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

const checklistNames = [
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

const timerNotes = [
  'Focused work session',
  'Call with the client',
  'Review and fixes',
  'Planning',
  'Pairing session',
  'Research',
] as const;

const personalTags = ['personal', 'admin', 'learning', 'errands', 'team'] as const;
const tagColors = [
  '#64748b',
  '#3b82f6',
  '#22c55e',
  '#f59e0b',
  '#ef4444',
  '#a855f7',
  '#14b8a6',
] as const;

const taskStatusWeights = [
  ['To Do', 35],
  ['In Progress', 25],
  ['In Review', 10],
  ['Done', 30],
] as const;
const taskPriorityWeights = [
  ['Urgent', 8],
  ['High', 22],
  ['Medium', 35],
  ['Low', 20],
  ['None', 15],
] as const;

// ---------------------------------------------------------------------------------------------
// Attachment files

/** A 1x1 transparent PNG. */
const tinyPng = Buffer.from([
  137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0,
  0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 100, 96, 248, 95, 15, 0, 2, 135,
  1, 128, 235, 71, 186, 146, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
]);

interface DemoFile {
  fileName: string;
  contentType: string;
  bytes: Buffer;
  /** Where it goes: a top-level task (by title), a project, or the first subtask in a project. */
  on: { task: string } | { project: string } | { subtaskIn: string };
  orgId: number;
  by: UserKey;
}

const text = (s: string) => Buffer.from(s, 'utf8');

const demoFiles: readonly DemoFile[] = [
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

// ---------------------------------------------------------------------------------------------
// The seeder

interface TaskRec {
  id: number;
  orgId: number;
  spaceId: number | null;
  projectId: number | null;
  parentId: number | null;
  title: string;
  status: string;
  done: boolean;
  due: number | null;
  owners: number[];
  /** Who may act on it (project members, or the owner of a personal task). */
  people: number[];
  createdBy: number;
  created: number;
  modified: number;
  description: string;
  tags: readonly string[];
  fields: readonly FieldDef[];
  projectStatus: ProjectStatusName | null;
}

interface FieldDef {
  id: number;
  spec: FieldSpec;
  optionIds: number[];
}

interface ProjectRec {
  id: number;
  name: string;
  orgId: number;
  created: number;
  modified: number;
}

const statements = (db: Db) => {
  const p = (sql: string) => db.prepare(sql);
  return {
    space: p(
      'INSERT INTO spaces (org_id, space_name, description, color, space_type, created_by, modified_by, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    spaceMember: p(
      'INSERT INTO space_members (space_id, user_id, invited_by, role_id, role_name) VALUES (?, ?, ?, ?, ?)',
    ),
    contact: p(
      'INSERT INTO contacts (org_id, body, created_time, modified_time) VALUES (?, ?, ?, ?)',
    ),
    contactBody: p('UPDATE contacts SET body = ? WHERE contact_id = ?'),
    vocab: {
      status: p('SELECT status_id AS id FROM project_statuses WHERE org_id = ? AND name = ?'),
      priority: p(
        'SELECT priority_id AS id FROM project_priorities WHERE org_id = ? AND label = ?',
      ),
      health: p('SELECT health_id AS id FROM project_health WHERE org_id = ? AND label = ?'),
    },
    project: p(
      `INSERT INTO projects (org_id, space_id, project_name, description, start_date, due_date, completion, is_public,
         status_id, priority_id, health_id, contact_id, completed, completed_time, created_by, modified_by, created_time, modified_time)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    projectCompletion: p('UPDATE projects SET completion = ? WHERE project_id = ?'),
    projectTag: p(
      'INSERT INTO project_tags (project_id, name, color, created_by) VALUES (?, ?, ?, ?)',
    ),
    projectMember: p(
      'INSERT INTO project_members (project_id, user_id, invited_by, role_id, role_name) VALUES (?, ?, ?, ?, ?)',
    ),
    field: p(
      `INSERT INTO custom_fields (org_id, space_id, project_id, name, description, field_type, icon, sort_order, created_by, created_time, modified_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    option: p('INSERT INTO custom_field_options (field_id, name, color) VALUES (?, ?, ?)'),
    task: p(
      `INSERT INTO tasks (org_id, space_id, project_id, parent_task_id, title, description, status, priority, start_date, due_date,
         completion, completed, completed_time, created_by, modified_by, created_time, modified_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    taskTag: p('INSERT INTO task_tags (task_id, name) VALUES (?, ?)'),
    taskOwner: p('INSERT INTO task_owners (task_id, user_id) VALUES (?, ?)'),
    value: p(
      'INSERT INTO custom_field_values (task_id, field_id, value, text, num) VALUES (?, ?, ?, ?, ?)',
    ),
    checklist: p(
      'INSERT INTO checklist_items (task_id, name, completed, assignee_id, position, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    attachment: p(
      `INSERT INTO attachments (org_id, task_id, project_id, file_name, extension, content_type, size, completed_bytes, stored_name, created_by, created_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    timer: p(
      `INSERT INTO timers (org_id, task_id, project_id, user_id, state, start_time, end_time, accumulated_ms, running_since, billing_status, notes, created_time, modified_time)
       VALUES (?, ?, ?, ?, 'STOPPED', ?, ?, ?, NULL, ?, ?, ?, ?)`,
    ),
    notification: p(
      'INSERT INTO notifications (org_id, user_id, type, title, body, task_id, project_id, read, created_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    comment: p(
      'INSERT INTO comments (org_id, task_id, content, created_by, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?)',
    ),
  };
};

type Statements = ReturnType<typeof statements>;

const idOf = (info: { lastInsertRowid: number | bigint }) => Number(info.lastInsertRowid);
const lookupId = (s: { get(...params: unknown[]): unknown }, ...params: unknown[]): number => {
  const row = s.get(...params) as { id: number } | undefined;
  if (!row) throw new Error(`demo seed: no vocabulary row for ${params.join(' / ')}`);
  return row.id;
};

interface Counts {
  orgs: number;
  users: number;
  spaces: number;
  projects: number;
  tasks: number;
  subtasks: number;
  checklistItems: number;
  attachments: number;
  comments: number;
  timers: number;
  notifications: number;
  customValues: number;
}

class DemoSeeder {
  private readonly s: Statements;
  private readonly users = new Map<UserKey, number>();
  private readonly emailOf = new Map<number, string>();
  private readonly nameOf = new Map<number, string>();
  readonly tasks: TaskRec[] = [];
  readonly projects: ProjectRec[] = [];
  private readonly dayStart: number;
  readonly counts: Counts = {
    orgs: 0,
    users: 0,
    spaces: 0,
    projects: 0,
    tasks: 0,
    subtasks: 0,
    checklistItems: 0,
    attachments: 0,
    comments: 0,
    timers: 0,
    notifications: 0,
    customValues: 0,
  };

  constructor(
    private readonly db: Db,
    private readonly now: number,
    private readonly rng: Rng,
  ) {
    this.s = statements(db);
    this.dayStart = now - (((now % DAY) + DAY) % DAY);
  }

  private uid(key: UserKey): number {
    const id = this.users.get(key);
    if (id === undefined) throw new Error(`demo seed: unknown user ${key}`);
    return id;
  }

  /** A time `fromDays`..`toDays` days ago, on a whole minute, never after now. */
  private ago(fromDays: number, toDays: number): number {
    const t = this.now - this.rng.int(Math.round(fromDays * DAY), Math.round(toDays * DAY));
    return Math.min(this.now, t - (((t % MINUTE) + MINUTE) % MINUTE));
  }

  /** A time between `from` and now, on a whole minute, at least `from`. */
  private between(from: number, to = this.now): number {
    if (to <= from) return from;
    const t = from + Math.floor(this.rng.next() * (to - from));
    return Math.max(from, t - (t % MINUTE));
  }

  /** 17:00 UTC of the day `days` from today. */
  private dayAt(days: number, hour = 17): number {
    return this.dayStart + days * DAY + hour * HOUR;
  }

  createUsers(hashes: { demo: string; other: string; colleague: string }) {
    for (const p of people) {
      const hash =
        p.key === 'demo' ? hashes.demo : p.key === 'other' ? hashes.other : hashes.colleague;
      const created = this.now - 61 * DAY + this.users.size * HOUR;
      const id = createUser(
        this.db,
        {
          email: p.email,
          password: '',
          firstName: p.firstName,
          lastName: p.lastName,
          color: p.color,
        },
        created,
        hash,
      );
      this.users.set(p.key, id);
      this.emailOf.set(id, p.email);
      this.nameOf.set(id, `${p.firstName} ${p.lastName}`);
      this.counts.users++;
    }
  }

  seedOrg(org: OrgSpec) {
    createOrg(this.db, org.name, this.now - 61 * DAY, org.orgId);
    this.counts.orgs++;
    for (const [key, role] of org.members) addOrgMember(this.db, org.orgId, this.uid(key), role);
    const topLevel: TaskRec[] = [];
    for (const space of org.spaces) topLevel.push(...this.seedSpace(org.orgId, space));
    const demo = this.uid('demo');
    for (const title of org.personalTasks) {
      topLevel.push(
        this.addTask({
          orgId: org.orgId,
          spaceId: null,
          projectId: null,
          parent: null,
          title,
          people: [demo],
          tags: personalTags,
          fields: [],
          projectStatus: null,
          earliest: this.now - 58 * DAY,
        }),
      );
    }
    // Subtasks under a share of the top-level tasks (project and personal alike).
    const parents = new Set(
      this.rng.sample(topLevel, Math.round(org.subtaskShare * topLevel.length)),
    );
    for (const parent of topLevel) {
      if (!parents.has(parent)) continue;
      const n = this.rng.int(org.subtasksPer[0], org.subtasksPer[1]);
      const titles = this.rng.sample(subtaskTitles, n);
      for (const title of titles) {
        this.addTask({
          orgId: parent.orgId,
          spaceId: parent.spaceId,
          projectId: parent.projectId,
          parent,
          title,
          people: parent.people,
          tags: parent.tags,
          fields: parent.fields,
          projectStatus: parent.projectStatus,
          earliest: parent.created,
        });
      }
    }
  }

  private seedSpace(orgId: number, spec: SpaceSpec): TaskRec[] {
    const creator = this.uid(spec.members[0]!);
    const created = this.ago(59.5, 60);
    const spaceId = idOf(
      this.s.space.run(
        orgId,
        spec.name,
        spec.description,
        spec.color,
        spec.spaceType,
        creator,
        creator,
        created,
        created + HOUR,
      ),
    );
    this.counts.spaces++;
    spec.members.forEach((key, i) => {
      const u = this.uid(key);
      this.s.spaceMember.run(
        spaceId,
        u,
        i === 0 ? null : creator,
        i === 0 ? 1 : 2,
        i === 0 ? 'Admin' : 'Member',
      );
    });
    const spaceFields = this.addFields(orgId, spaceId, null, spec.fields, creator, created);
    const out: TaskRec[] = [];
    for (const project of spec.projects)
      out.push(...this.seedProject(orgId, spaceId, spec, spaceFields, project, created));
    return out;
  }

  private addFields(
    orgId: number,
    spaceId: number,
    projectId: number | null,
    specs: readonly FieldSpec[],
    creator: number,
    created: number,
  ): FieldDef[] {
    return specs.map((spec, order) => {
      const id = idOf(
        this.s.field.run(
          orgId,
          spaceId,
          projectId,
          spec.name,
          spec.description,
          spec.type,
          spec.icon,
          order,
          creator,
          created,
          created,
        ),
      );
      const optionIds =
        spec.type === 'DROPDOWN'
          ? spec.options.map(([name, color]) => idOf(this.s.option.run(id, name, color)))
          : [];
      return { id, spec, optionIds };
    });
  }

  private seedProject(
    orgId: number,
    spaceId: number,
    space: SpaceSpec,
    spaceFields: FieldDef[],
    spec: ProjectSpec,
    spaceCreated: number,
  ): TaskRec[] {
    const members = spec.members.map((k) => this.uid(k));
    const creator = members[0]!;
    const created = this.between(spaceCreated + HOUR, spaceCreated + 2 * DAY);
    const modified = this.between(this.now - 5 * DAY);
    const completed = spec.status === 'Completed';

    let contactId: number | null = null;
    if (spec.contact) {
      const c = spec.contact;
      contactId = idOf(this.s.contact.run(orgId, '{}', created, created));
      const body = {
        tenantId: orgId,
        contactId,
        contactName: c.name,
        email: c.email,
        phone: { countryCode: phonePrefix(c.country), number: c.phone, countryName: c.country },
        mobile: {
          countryCode: phonePrefix(c.country),
          number: c.phone.replace(/\d$/, '7'),
          countryName: c.country,
        },
        address: c.address,
        city: c.city,
        country: c.country,
        state: c.state,
        zipCode: c.zipCode,
        website: c.website,
        profilePicColor: this.rng.pick(tagColors),
        createdTime: new Date(created).toISOString(),
        modifiedTime: new Date(created).toISOString(),
        account: {
          accountId: contactId,
          accountName: c.account,
          email: c.email.replace(/^[^@]*/, 'info'),
        },
        contactTags: c.tags.map((tagName, i) => ({
          tenantId: orgId,
          contactTagId: contactId! * 10 + i,
          tagName,
          color: tagColors[i % tagColors.length],
        })),
        projectCount: 1,
      };
      this.s.contactBody.run(JSON.stringify(body), contactId);
    }

    const projectId = idOf(
      this.s.project.run(
        orgId,
        spaceId,
        spec.name,
        spec.description,
        this.dayAt(spec.startDays, 9),
        this.dayAt(spec.dueDays),
        spec.isPublic === false ? 0 : 1,
        lookupId(this.s.vocab.status, orgId, spec.status),
        lookupId(this.s.vocab.priority, orgId, spec.priority),
        lookupId(this.s.vocab.health, orgId, spec.health),
        contactId,
        completed ? 1 : 0,
        completed ? modified : null,
        creator,
        this.rng.pick(members),
        created,
        modified,
      ),
    );
    this.counts.projects++;
    this.projects.push({ id: projectId, name: spec.name, orgId, created, modified });
    spec.tags.forEach((tag, i) => {
      this.s.projectTag.run(projectId, tag, tagColors[i % tagColors.length]!, creator);
    });
    members.forEach((u, i) => {
      this.s.projectMember.run(
        projectId,
        u,
        i === 0 ? null : creator,
        i === 0 ? 1 : 2,
        i === 0 ? 'Manager' : 'Member',
      );
    });
    const fields = [
      ...spaceFields,
      ...this.addFields(orgId, spaceId, projectId, spec.fields ?? [], creator, created),
    ];

    const out: TaskRec[] = [];
    for (const title of spec.tasks) {
      out.push(
        this.addTask({
          orgId,
          spaceId,
          projectId,
          parent: null,
          title,
          people: members,
          tags: space.taskTags,
          fields,
          projectStatus: spec.status,
          earliest: created,
        }),
      );
    }
    const done = out.filter((t) => t.done).length;
    this.s.projectCompletion.run(
      completed ? 100 : Math.round((100 * done) / Math.max(1, out.length)),
      projectId,
    );
    return out;
  }

  private statusFor(projectStatus: ProjectStatusName | null, parent: TaskRec | null): string {
    if (parent?.done || projectStatus === 'Completed') return 'Done';
    if (projectStatus === 'Not Started')
      return this.rng.weighted([
        ['To Do', 80],
        ['In Progress', 20],
      ]);
    return this.rng.weighted(taskStatusWeights);
  }

  private dueFor(done: boolean, projectStatus: ProjectStatusName | null): number | null {
    if (done || projectStatus === 'Completed')
      return this.rng.chance(0.25) ? null : this.dayAt(-this.rng.int(1, 25));
    const bucket = this.rng.weighted([
      ['overdue', 15],
      ['today', 9],
      ['week', 26],
      ['later', 27],
      ['none', 23],
    ] as const);
    switch (bucket) {
      case 'overdue':
        return this.dayAt(-this.rng.int(1, 12), this.rng.int(9, 18));
      case 'today': {
        // Later today (never already past: that would be overdue, not due today).
        const endOfDay = this.dayStart + DAY - 1;
        return Math.min(endOfDay, Math.max(this.now + 30 * MINUTE, this.dayAt(0, 17)));
      }
      case 'week':
        return this.dayAt(this.rng.int(1, 6), this.rng.int(9, 18));
      case 'later':
        return this.dayAt(this.rng.int(8, 45));
      case 'none':
        return null;
    }
  }

  private description(people: readonly number[], creator: number): string {
    if (this.rng.chance(0.2)) return '';
    const parts: string[] = this.rng.sample<string>(descriptionSentences, this.rng.int(1, 2));
    const others = people.filter((u) => u !== creator);
    if (others.length > 0 && this.rng.chance(0.3)) {
      parts.push(this.rng.pick(mentionLines)(this.emailOf.get(this.rng.pick(others))!));
    }
    return parts.join(' ');
  }

  private addTask(o: {
    orgId: number;
    spaceId: number | null;
    projectId: number | null;
    parent: TaskRec | null;
    title: string;
    people: readonly number[];
    tags: readonly string[];
    fields: readonly FieldDef[];
    projectStatus: ProjectStatusName | null;
    earliest: number;
  }): TaskRec {
    const rng = this.rng;
    const demo = this.uid('demo');
    const status = this.statusFor(o.projectStatus, o.parent);
    const done = status === 'Done';
    const due = this.dueFor(done, o.projectStatus);
    // Created before a past due date, after the project (or parent), within the last 60 days.
    const latest =
      due !== null && due < this.now ? Math.min(due - DAY, this.now - HOUR) : this.now - HOUR;
    const created = this.between(o.earliest + MINUTE, Math.max(o.earliest + MINUTE, latest));
    const modified = this.between(created, this.now);
    // A start date on about half the dated tasks: a few days before the due date, not before creation.
    let start: number | null = null;
    if (due !== null && rng.chance(0.5)) {
      const planned = due - rng.int(2, 10) * DAY;
      start = planned >= created ? planned : created <= due ? created : null;
    }
    const completion = done
      ? 100
      : status === 'In Progress'
        ? rng.int(1, 7) * 10
        : status === 'In Review'
          ? rng.pick([80, 90])
          : 0;
    const priority = rng.weighted(taskPriorityWeights);

    // Owners: one or two of the people; the demo user owns a good share of what it can see.
    let owners: number[];
    if (o.people.length === 1) owners = [...o.people];
    else {
      owners = rng.sample(o.people, rng.chance(0.3) ? 2 : 1);
      if (o.people.includes(demo) && !owners.includes(demo) && rng.chance(0.3)) owners[0] = demo;
    }
    const createdBy = o.parent
      ? rng.pick([o.parent.createdBy, ...o.people])
      : o.people.length === 1
        ? o.people[0]!
        : rng.pick(o.people);
    const modifiedBy = rng.pick([createdBy, ...owners]);
    const description = o.parent && rng.chance(0.5) ? '' : this.description(o.people, createdBy);

    const id = idOf(
      this.s.task.run(
        o.orgId,
        o.spaceId,
        o.projectId,
        o.parent?.id ?? null,
        o.title,
        description,
        status,
        priority,
        start,
        due,
        completion,
        done ? 1 : 0,
        done ? modified : null,
        createdBy,
        modifiedBy,
        created,
        modified,
      ),
    );
    this.counts.tasks++;
    if (o.parent) this.counts.subtasks++;

    const tags = rng.sample(
      o.tags,
      rng.weighted([
        [0, 25],
        [1, 50],
        [2, 25],
      ]),
    );
    for (const tag of tags) this.s.taskTag.run(id, tag);
    for (const u of owners) this.s.taskOwner.run(id, u);

    for (const f of o.fields) {
      if (!rng.chance(0.6)) continue;
      const v = this.fieldValue(f);
      this.s.value.run(id, f.id, v.value, v.text, v.num);
      this.counts.customValues++;
    }

    if (rng.chance(0.4)) {
      const items = rng.sample(checklistNames, rng.int(2, 5));
      items.forEach((name, position) => {
        const itemDone = done || (status !== 'To Do' && rng.chance(0.5));
        const assignee = rng.chance(0.4) ? rng.pick(o.people) : null;
        const itemCreated = this.between(created, modified);
        this.s.checklist.run(
          id,
          name,
          itemDone ? 1 : 0,
          assignee,
          position,
          itemCreated,
          this.between(itemCreated, modified),
        );
        this.counts.checklistItems++;
      });
    }

    const rec: TaskRec = {
      id,
      orgId: o.orgId,
      spaceId: o.spaceId,
      projectId: o.projectId,
      parentId: o.parent?.id ?? null,
      title: o.title,
      status,
      done,
      due,
      owners,
      people: [...o.people],
      createdBy,
      created,
      modified,
      description,
      tags: o.tags,
      fields: o.fields,
      projectStatus: o.projectStatus,
    };
    this.tasks.push(rec);
    return rec;
  }

  private fieldValue(f: FieldDef): { value: string; text: string; num: number | null } {
    const spec = f.spec;
    switch (spec.type) {
      case 'TEXT': {
        const v = this.rng.pick(spec.texts);
        return { value: JSON.stringify(v), text: v, num: null };
      }
      case 'NUMBER': {
        const v = this.rng.int(spec.min, spec.max);
        return { value: JSON.stringify(v), text: String(v), num: v };
      }
      case 'DATE': {
        const v = this.dayStart + this.rng.int(spec.fromDays, spec.toDays) * DAY;
        return { value: JSON.stringify(v), text: String(v), num: v };
      }
      case 'DROPDOWN': {
        const i = this.rng.int(0, f.optionIds.length - 1);
        return { value: JSON.stringify(f.optionIds[i]!), text: spec.options[i]![0], num: null };
      }
      case 'CHECKBOX': {
        const v = this.rng.chance(0.5);
        return { value: JSON.stringify(v), text: String(v), num: null };
      }
    }
  }

  private task(orgId: number, title: string): TaskRec {
    const t = this.tasks.find((x) => x.orgId === orgId && x.title === title && x.parentId === null);
    if (!t) throw new Error(`demo seed: no task "${title}"`);
    return t;
  }

  private project(orgId: number, name: string): ProjectRec {
    const p = this.projects.find((x) => x.orgId === orgId && x.name === name);
    if (!p) throw new Error(`demo seed: no project "${name}"`);
    return p;
  }

  addAttachments(files: readonly (DemoFile & { storedName: string })[]) {
    for (const f of files) {
      let taskId: number | null = null;
      let projectId: number | null = null;
      let after: number;
      if ('project' in f.on) {
        const p = this.project(f.orgId, f.on.project);
        projectId = p.id;
        after = p.created;
      } else {
        let t: TaskRec | undefined;
        if ('task' in f.on) t = this.task(f.orgId, f.on.task);
        else {
          const p = this.project(f.orgId, f.on.subtaskIn);
          t = this.tasks.find((x) => x.projectId === p.id && x.parentId !== null);
          if (!t) throw new Error(`demo seed: no subtask in "${f.on.subtaskIn}"`);
        }
        taskId = t.id;
        after = t.created;
      }
      const ext = f.fileName.slice(f.fileName.lastIndexOf('.') + 1);
      this.s.attachment.run(
        f.orgId,
        taskId,
        projectId,
        f.fileName,
        ext,
        f.contentType,
        f.bytes.length,
        f.bytes.length,
        f.storedName,
        this.uid(f.by),
        this.between(after),
      );
      this.counts.attachments++;
    }
  }

  /** Stopped timers only: the demo user starts with no running or paused timer. */
  addTimers() {
    const demo = this.uid('demo');
    const mine = (orgId: number) =>
      this.tasks.filter(
        (t) => t.orgId === orgId && t.owners.includes(demo) && t.created < this.now - 15 * DAY,
      );
    const plan: [number, number][] = [
      [1, 12],
      [2, 3],
    ];
    for (const [orgId, n] of plan) {
      const candidates = mine(orgId);
      const chosen = this.rng.sample(candidates, n);
      chosen.forEach((t, i) => {
        // Spread over the past two weeks, one or two sessions a working day.
        const daysAgo = 1 + Math.floor((i * 13) / Math.max(1, n - 1));
        const start = this.dayAt(-daysAgo, this.rng.int(8, 15)) + this.rng.int(0, 3) * 15 * MINUTE;
        const duration = this.rng.int(1, 12) * 15 * MINUTE + this.rng.int(0, 59) * 1000;
        const end = Math.min(start + duration, this.now - MINUTE);
        const billable = t.projectId !== null ? this.rng.chance(0.75) : this.rng.chance(0.15);
        const notes = this.rng.chance(0.6) ? this.rng.pick(timerNotes) : null;
        this.s.timer.run(
          orgId,
          t.id,
          t.projectId,
          demo,
          start,
          end,
          end - start,
          billable ? 'BILLABLE' : 'NON_BILLABLE',
          notes,
          start,
          end,
        );
        this.counts.timers++;
      });
    }
    // Some colleagues' time on project tasks, so that project timesheets have more than one name.
    const colleagues = this.tasks.filter(
      (t) => t.orgId === 1 && t.projectId !== null && t.created < this.now - 15 * DAY,
    );
    for (const t of this.rng.sample(colleagues, 10)) {
      const user = t.owners.find((u) => u !== demo) ?? t.people.find((u) => u !== demo);
      if (user === undefined) continue;
      const start = this.dayAt(-this.rng.int(1, 14), this.rng.int(8, 16));
      const end = Math.min(start + this.rng.int(2, 10) * 15 * MINUTE, this.now - MINUTE);
      this.s.timer.run(
        1,
        t.id,
        t.projectId,
        user,
        start,
        end,
        end - start,
        'BILLABLE',
        null,
        start,
        end,
      );
      this.counts.timers++;
    }
  }

  /** Comments on ~30 tasks; returns the ones others wrote on tasks the demo user owns. */
  addComments(): { task: TaskRec; by: number; content: string; at: number }[] {
    const demo = this.uid('demo');
    const forDemo: { task: TaskRec; by: number; content: string; at: number }[] = [];
    const plan: [number, number][] = [
      [1, 27],
      [2, 4],
    ];
    for (const [orgId, n] of plan) {
      const candidates = this.tasks.filter((t) => t.orgId === orgId && t.people.length > 1);
      for (const t of this.rng.sample(candidates, n)) {
        let at = t.created;
        const count = this.rng.int(1, 3);
        for (let i = 0; i < count; i++) {
          at = this.between(at + MINUTE, this.now);
          const by = this.rng.pick(t.people);
          const mentionable = t.people.filter((u) => u !== by);
          const content =
            mentionable.length > 0 && this.rng.chance(0.25)
              ? `@${this.emailOf.get(this.rng.pick(mentionable))} ${this.rng.pick(commentTexts)}`
              : this.rng.pick(commentTexts);
          this.s.comment.run(orgId, t.id, content, by, at, at);
          this.counts.comments++;
          if (by !== demo && t.owners.includes(demo)) forDemo.push({ task: t, by, content, at });
        }
      }
    }
    return forDemo;
  }

  addNotifications(comments: { task: TaskRec; by: number; content: string; at: number }[]) {
    const demo = this.uid('demo');
    const demoEmail = this.emailOf.get(demo)!;
    interface Note {
      orgId: number;
      type: 'ASSIGNED' | 'MENTION' | 'DUE' | 'COMMENT' | 'STATUS';
      title: string;
      body: string;
      task: TaskRec;
      at: number;
    }
    const notes: Note[] = [];
    const recent = (t: TaskRec) => Math.max(t.created, this.now - 14 * DAY);
    const name = (u: number) => this.nameOf.get(u) ?? 'Someone';
    const owned = this.tasks.filter((t) => t.owners.includes(demo) && t.projectId !== null);

    for (const t of this.rng.sample(
      owned.filter((t) => t.createdBy !== demo),
      6,
    )) {
      notes.push({
        orgId: t.orgId,
        type: 'ASSIGNED',
        title: `${name(t.createdBy)} assigned you a task`,
        body: t.title,
        task: t,
        at: this.between(recent(t)),
      });
    }
    for (const t of this.rng.sample(
      this.tasks.filter((x) => x.description.includes(`@${demoEmail}`)),
      4,
    )) {
      notes.push({
        orgId: t.orgId,
        type: 'MENTION',
        title: `${name(t.createdBy)} mentioned you`,
        body: `in "${t.title}"`,
        task: t,
        at: this.between(recent(t)),
      });
    }
    for (const c of this.rng.sample(comments, 4)) {
      notes.push({
        orgId: c.task.orgId,
        type: 'COMMENT',
        title: `${name(c.by)} commented on "${c.task.title}"`,
        body: c.content,
        task: c.task,
        at: c.at,
      });
    }
    const dueSoon = owned.filter(
      (t) => !t.done && t.due !== null && t.due < this.dayStart + 3 * DAY,
    );
    for (const t of this.rng.sample(dueSoon, 4)) {
      const due = t.due!;
      const title =
        due < this.now
          ? `Overdue: ${t.title}`
          : due < this.dayStart + DAY
            ? `Due today: ${t.title}`
            : `Due soon: ${t.title}`;
      notes.push({
        orgId: t.orgId,
        type: 'DUE',
        title,
        body: `Due ${new Date(due).toISOString().slice(0, 10)}`,
        task: t,
        at: Math.max(t.created, Math.min(this.now - 10 * MINUTE, due - DAY)),
      });
    }
    const moved = owned.filter((t) => t.status === 'In Review' || t.status === 'Done');
    for (const t of this.rng.sample(moved, 4)) {
      const by = this.rng.pick(t.people.filter((u) => u !== demo).concat(t.createdBy));
      notes.push({
        orgId: t.orgId,
        type: 'STATUS',
        title: `${name(by)} moved a task to ${t.status}`,
        body: t.title,
        task: t,
        at: Math.min(t.modified, this.now),
      });
    }
    notes.sort((a, b) => a.at - b.at || a.task.id - b.task.id);
    notes.forEach((n, i) => {
      const unread = i >= notes.length - 8;
      this.s.notification.run(
        n.orgId,
        demo,
        n.type,
        n.title,
        n.body,
        n.task.id,
        n.task.projectId,
        unread ? 0 : 1,
        n.at,
      );
      this.counts.notifications++;
    });
  }
}

const phonePrefix = (country: string): string =>
  ({ Germany: '+49', 'United Kingdom': '+44', 'United States': '+1', Portugal: '+351' })[country] ??
  '+1';

export const seedDemo = (deps: ServerDeps): string => {
  const started = performance.now();
  const { db } = deps;
  const now = deps.clock.now();
  const rng = createRng(0x5eed_de30);
  const hashes = {
    demo: hashPassword('demo1234'),
    other: hashPassword('other1234'),
    colleague: hashPassword('welcome1234'),
  };

  // Files first: a row never points at a file that is not there.
  mkdirSync(deps.filesDir, { recursive: true });
  const files = demoFiles.map((f, i) => ({
    ...f,
    storedName: `demo-${String(i + 1).padStart(2, '0')}-${f.fileName}`,
  }));
  for (const f of files) writeFileSync(join(deps.filesDir, f.storedName), f.bytes);

  const counts = db.transaction(() => {
    const seeder = new DemoSeeder(db, now, rng);
    seeder.createUsers(hashes);
    seeder.seedOrg(northwind);
    seeder.seedOrg(globex);
    seeder.addAttachments(files);
    seeder.addTimers();
    seeder.addNotifications(seeder.addComments());
    return seeder.counts;
  })();

  const ms = Math.round(performance.now() - started);
  return (
    `demo seed: ${counts.orgs} orgs, ${counts.users} users, ${counts.spaces} spaces, ${counts.projects} projects, ` +
    `${counts.tasks} tasks (${counts.subtasks} subtasks), ${counts.checklistItems} checklist items, ` +
    `${counts.customValues} custom values, ${counts.attachments} attachments, ${counts.comments} comments, ` +
    `${counts.timers} timers, ${counts.notifications} notifications in ${ms} ms; sign in as demo@example.com / demo1234`
  );
};
