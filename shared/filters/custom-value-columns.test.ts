import { describe, expect, it } from 'vitest';
import { customValueColumns } from './custom-value-columns';

describe('customValueColumns', () => {
  it('number, currency and percent fields compare as numbers, also when sent as text', () => {
    expect(customValueColumns('NUMBER', 8)).toEqual({ text: '8', num: 8 });
    expect(customValueColumns('currency', '12.50')).toEqual({ text: '12.5', num: 12.5 });
    expect(customValueColumns('Percent', 40)).toEqual({ text: '40', num: 40 });
    expect(customValueColumns('CURRENCY', 'n/a')).toEqual({ text: 'n/a', num: null });
  });

  it('a text field keeps its text and no number', () => {
    expect(customValueColumns('TEXT', '12')).toEqual({ text: '12', num: null });
  });
});
