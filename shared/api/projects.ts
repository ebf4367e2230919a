import { z } from 'zod';
import { dateTime, id, opt, userRef } from './common';
import { customField } from './custom-fields';

const phone = z.looseObject({
  countryCode: opt(z.string()),
  number: opt(z.string()),
  countryName: opt(z.string()),
});

export const contact = z.looseObject({
  tenantId: opt(id),
  contactId: id,
  contactName: opt(z.string()),
  email: opt(z.string()),
  phone: opt(phone),
  mobile: opt(phone),
  address: opt(z.string()),
  city: opt(z.string()),
  country: opt(z.string()),
  state: opt(z.string()),
  zipCode: opt(z.string()),
  website: opt(z.string()),
  profilePicURL: opt(z.string()),
  profilePicName: opt(z.string()),
  profilePicColor: opt(z.string()),
  createdBy: opt(userRef),
  modifiedBy: opt(userRef),
  createdTime: opt(dateTime),
  modifiedTime: opt(dateTime),
  account: opt(
    z.looseObject({
      accountId: opt(id),
      accountName: opt(z.string()),
      email: opt(z.string()),
      profilePicUrl: opt(z.string()),
      profilePicName: opt(z.string()),
      profilePicColor: opt(z.string()),
    }),
  ),
  contactTags: opt(
    z.array(
      z.looseObject({
        tenantId: opt(id),
        contactTagId: id,
        tagName: z.string(),
        color: opt(z.string()),
        createdBy: opt(z.unknown()),
        modifiedBy: opt(z.unknown()),
      }),
    ),
  ),
  projectCount: opt(z.number().int()),
});
export type Contact = z.infer<typeof contact>;

export const projectStatus = z.looseObject({
  tenantId: opt(id),
  projectStatusId: id,
  projectStatusName: z.string(),
  color: opt(z.string()),
  projectStatusCategory: opt(z.string()),
  createdTime: opt(dateTime),
  modifiedTime: opt(dateTime),
  createdBy: opt(z.unknown()),
  modifiedBy: opt(z.unknown()),
  default: opt(z.boolean()),
});

export const projectPriority = z.looseObject({
  tenantId: opt(id),
  projectPriorityId: id,
  priorityLabel: z.string(),
  color: opt(z.string()),
  createdBy: opt(z.unknown()),
  modifiedBy: opt(z.unknown()),
  default: opt(z.boolean()),
  primary: opt(z.boolean()),
});

export const projectHealth = z.looseObject({
  tenantId: opt(id),
  projectHealthId: id,
  healthLabel: z.string(),
  color: opt(z.string()),
  createdBy: opt(z.unknown()),
  modifiedBy: opt(z.unknown()),
  default: opt(z.boolean()),
  primary: opt(z.boolean()),
});

export const projectTag = z.looseObject({
  tenantId: opt(id),
  projectTagId: id,
  tagName: z.string(),
  color: opt(z.string()),
  createdBy: opt(id),
  modifiedBy: opt(id),
});

export const projectMember = z.looseObject({
  projectMemberId: id,
  projectId: opt(id),
  user: opt(userRef),
  invitedBy: opt(userRef),
  role: opt(z.looseObject({ projectRoleId: opt(id), projectRoleName: opt(z.string()) })),
});

export const project = z.looseObject({
  tenantId: opt(id),
  spaceId: id,
  projectId: id,
  contact: opt(contact),
  projectName: z.string(),
  description: opt(z.string()),
  startDate: opt(dateTime),
  dueDate: opt(dateTime),
  completion: opt(z.number().int()),
  deleted: opt(z.boolean()),
  public: opt(z.boolean()),
  overdue: opt(z.boolean()),
  archived: opt(z.boolean()),
  createdTime: opt(dateTime),
  modifiedTime: opt(dateTime),
  deletedTime: opt(dateTime),
  completedTime: opt(dateTime),
  createdBy: opt(userRef),
  modifiedBy: opt(userRef),
  deletedBy: opt(userRef),
  projectStatus: opt(projectStatus),
  projectPriority: opt(projectPriority),
  projectHealth: opt(projectHealth),
  projectTags: opt(z.array(projectTag)),
  projectMembers: opt(z.array(projectMember)),
  projectMail: opt(z.string()),
  spaceName: opt(z.string()),
  customFields: opt(z.array(customField)),
});
export type Project = z.infer<typeof project>;

/**
 * ProjectCreateRequest / ProjectUpdateRequest: not shown by the spec. Fixed here like the
 * task bodies: names for status, priority and health; user ids for members. An update
 * sends the full editable state.
 */
export const projectCreateRequest = z.object({
  projectName: z.string().trim().min(1, 'must not be blank').max(200),
  description: z.string().max(20_000).optional(),
  startDate: dateTime.nullish(),
  dueDate: dateTime.nullish(),
  completion: z.number().int().min(0).max(100).optional(),
  status: z.string().min(1).optional(),
  priority: z.string().min(1).optional(),
  health: z.string().min(1).optional(),
  tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
  members: z.array(id).max(500).optional(),
  public: z.boolean().optional(),
  contactId: id.nullish(),
});
export type ProjectCreateRequest = z.infer<typeof projectCreateRequest>;

export const projectUpdateRequest = projectCreateRequest;
export type ProjectUpdateRequest = z.infer<typeof projectUpdateRequest>;
