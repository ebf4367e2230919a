/** The demo team: who signs in (demo, other) and the colleagues that fill the orgs. */

export type UserKey = 'demo' | 'maria' | 'james' | 'priya' | 'tom' | 'aisha' | 'lucas' | 'other';

export interface Person {
  key: UserKey;
  firstName: string;
  lastName: string;
  email: string;
  color: string;
}

// Insertion order (and so user ids) is this order.
export const people: readonly Person[] = [
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
