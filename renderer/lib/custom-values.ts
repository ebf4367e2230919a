import type { CustomField, CustomFieldOption } from '../../shared/api/custom-fields';

export const isDropdown = (field: CustomField | undefined) =>
  field?.fieldType.toUpperCase() === 'DROPDOWN' && (field.customFieldOption?.length ?? 0) > 0;

/**
 * The option a dropdown value names. The service stores an option's id (a number, or its
 * text when it came through a form); older edits of this client stored its name.
 */
export const optionOf = (field: CustomField, value: unknown): CustomFieldOption | undefined =>
  field.customFieldOption?.find(
    (o) => o.optionId === value || String(o.optionId) === value || o.optionName === value,
  );
