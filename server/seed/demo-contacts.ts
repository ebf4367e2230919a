import type { DemoContext } from './demo-context';
import type { ContactSpec } from './demo-spec';
import { idOf } from './demo-statements';
import { tagColors } from './demo-texts';

/** A project's external contact, stored as the JSON body the contacts API serves. */

const phonePrefix = (country: string): string =>
  ({ Germany: '+49', 'United Kingdom': '+44', 'United States': '+1', Portugal: '+351' })[country] ??
  '+1';

/** Inserts the contact, then fills in its body, which repeats the id the insert handed out. */
export const addContact = (
  ctx: DemoContext,
  orgId: number,
  c: ContactSpec,
  created: number,
): number => {
  const contactId = idOf(ctx.s.contact.run(orgId, '{}', created, created));
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
    profilePicColor: ctx.rng.pick(tagColors),
    createdTime: new Date(created).toISOString(),
    modifiedTime: new Date(created).toISOString(),
    account: {
      accountId: contactId,
      accountName: c.account,
      email: c.email.replace(/^[^@]*/, 'info'),
    },
    contactTags: c.tags.map((tagName, i) => ({
      tenantId: orgId,
      contactTagId: contactId * 10 + i,
      tagName,
      color: tagColors[i % tagColors.length],
    })),
    projectCount: 1,
  };
  ctx.s.contactBody.run(JSON.stringify(body), contactId);
  return contactId;
};
