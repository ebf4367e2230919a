/**
 * How a custom field value is stored for filtering, in both the server's store and the
 * replica: `text` is what text conditions compare (an option's name for a dropdown), `num` what
 * date and number conditions compare (epoch ms for DATE). One function, so that a customFields
 * filter gives the same rows online and offline.
 */
export interface CustomValueColumns {
  text: string | null;
  num: number | null;
}

/** Types whose values compare as numbers (number, currency, percent fields). */
export const numericFieldTypes: readonly string[] = ['NUMBER', 'CURRENCY', 'PERCENT'];

export const customValueColumns = (
  fieldType: string,
  value: unknown,
  options: readonly { optionId: number; optionName: string }[] = [],
): CustomValueColumns => {
  if (value === null || value === undefined) return { text: null, num: null };
  const type = fieldType.toUpperCase();
  if (type === 'DATE' || numericFieldTypes.includes(type)) {
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? { text: String(n), num: n } : { text: String(value), num: null };
  }
  if (type === 'DROPDOWN') {
    const option = options.find((o) => o.optionId === value || o.optionName === value);
    return { text: option ? option.optionName : String(value), num: null };
  }
  if (type === 'CHECKBOX') {
    const on = value === true || value === 'true' || value === 1;
    return { text: on ? 'true' : 'false', num: on ? 1 : 0 };
  }
  return {
    text: typeof value === 'string' ? value : JSON.stringify(value),
    num: typeof value === 'number' ? value : null,
  };
};
