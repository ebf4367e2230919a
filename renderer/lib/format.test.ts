import { describe, expect, it } from 'vitest';
import { hours } from './format';

describe('hours', () => {
  it('says seconds under a minute, so a short timer does not read as nothing', () => {
    expect(hours(0)).toBe('0m');
    expect(hours(3)).toBe('3s');
    expect(hours(59)).toBe('59s');
  });

  it('says minutes, then hours and minutes', () => {
    expect(hours(60)).toBe('1m');
    expect(hours(5400)).toBe('1h 30m');
  });
});
