import { z } from 'zod';
import { dateTime, id, opt, userRef } from './common';
import { customField } from './custom-fields';

export const spaceMember = z.looseObject({
  spaceMemberId: id,
  spaceId: opt(id),
  user: opt(userRef),
  invitedBy: opt(userRef),
  spaceRole: opt(z.looseObject({ spaceRoleId: opt(id), spaceRoleName: opt(z.string()) })),
  joined: opt(z.boolean()),
  hidden: opt(z.boolean()),
});
export type SpaceMember = z.infer<typeof spaceMember>;

export const space = z.looseObject({
  tenantId: opt(id),
  spaceId: id,
  spaceName: z.string(),
  description: opt(z.string()),
  color: opt(z.string()),
  spaceType: opt(z.string()),
  createdBy: opt(userRef),
  modifiedBy: opt(userRef),
  deletedBy: opt(userRef),
  createdTime: opt(dateTime),
  modifiedTime: opt(dateTime),
  deletedTime: opt(dateTime),
  deleted: opt(z.boolean()),
  archived: opt(z.boolean()),
  projectAdminMatch: opt(z.boolean()),
  spaceMembers: opt(z.array(spaceMember)),
  customFields: opt(z.array(customField)),
});
export type Space = z.infer<typeof space>;

const name = z.string().trim().min(1, 'must not be blank').max(200);

/** SpaceCreateRequest: not shown by the spec; the update fields plus an optional color. */
export const spaceCreateRequest = z.object({
  spaceName: name,
  description: z.string().max(10_000).optional(),
  spaceType: z.string().max(50).optional(),
  color: z.string().max(20).optional(),
});
export type SpaceCreateRequest = z.infer<typeof spaceCreateRequest>;

/** SpaceUpdateRequest: spaceName, description, spaceType (spec part 4), all strings. */
export const spaceUpdateRequest = z.object({
  spaceName: name,
  description: z.string().max(10_000).optional(),
  spaceType: z.string().max(50).optional(),
});
export type SpaceUpdateRequest = z.infer<typeof spaceUpdateRequest>;
