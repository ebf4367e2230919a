import { z } from 'zod';
import { dateTime, id, opt, userRef } from './common';

export const customFieldOption = z.looseObject({
  optionId: id,
  optionName: z.string(),
  color: opt(z.string()),
  spaceId: opt(id),
  projectId: opt(id),
  taskCustomFieldId: opt(id),
});
export type CustomFieldOption = z.infer<typeof customFieldOption>;

/** A value of a field on one task; `value` is any JSON (epoch ms for DATE). */
const customFieldValue = z.looseObject({ taskId: id, value: z.unknown() });

export const customField = z.looseObject({
  tenantId: opt(id),
  taskCustomFieldId: id,
  fieldName: z.string(),
  description: opt(z.string()),
  // A string: DATE is the type the spec names; others are kept as sent.
  fieldType: z.string(),
  fieldValue: opt(z.array(customFieldValue)),
  fieldIcon: opt(z.string()),
  spaceId: opt(id),
  projectId: opt(id),
  associatedId: opt(id),
  order: opt(z.number().int()),
  createdBy: opt(userRef),
  modifiedBy: opt(userRef),
  createdTime: opt(dateTime),
  modifiedTime: opt(dateTime),
  customFieldOption: opt(z.array(customFieldOption)),
});
export type CustomField = z.infer<typeof customField>;

/**
 * Setting a task's custom field value: an extension of this client and the reference
 * server (the spec shows no way to set values). `null` clears the value.
 */
export const customFieldValueInput = z.object({
  taskCustomFieldId: id,
  value: z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]),
});
export type CustomFieldValueInput = z.infer<typeof customFieldValueInput>;
