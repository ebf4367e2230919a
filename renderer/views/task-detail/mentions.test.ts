import { describe, expect, it } from 'vitest';
import { mentionParts } from './mentions';

const demo = { userId: 1, firstName: 'Demo', lastName: 'User', email: 'demo@example.com' };
const bob = { userId: 2, firstName: 'Bob', lastName: null, email: 'Bob.Builder@Example.com' };

describe('mentionParts', () => {
  it('cuts a comment into text and the people it mentions, by email in any case', () => {
    expect(
      mentionParts('@demo@example.com can you look? cc @bob.builder@example.com.', [demo, bob]),
    ).toEqual([
      { mention: demo, written: '@demo@example.com' },
      { text: ' can you look? cc ' },
      { mention: bob, written: '@bob.builder@example.com' },
      { text: '.' },
    ]);
  });

  it('keeps unknown people, plain emails and text without mentions as written', () => {
    const text = 'mail demo@example.com or @nobody@example.com';
    expect(mentionParts(text, [demo])).toEqual([{ text }]);
    expect(mentionParts('', [demo])).toEqual([]);
    expect(mentionParts('(@demo@example.com)', [demo])).toEqual([
      { text: '(' },
      { mention: demo, written: '@demo@example.com' },
      { text: ')' },
    ]);
  });
});
