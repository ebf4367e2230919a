import { describe, expect, it } from 'vitest';
import { mentionsIn } from './mentions';

describe('mentionsIn', () => {
  it('finds `@` + an email, its own `@` included, without the dot that ends a sentence', () => {
    const text = '@demo@example.com can you look? cc @Bob.Builder@example.com.';
    expect(mentionsIn(text)).toEqual([
      { email: 'demo@example.com', at: 0 },
      { email: 'Bob.Builder@example.com', at: text.indexOf('@Bob') },
    ]);
  });

  it('takes no plain email and no `@` glued to a word', () => {
    expect(mentionsIn('write to bob@example.com or x@bob@example.com, @bob')).toEqual([]);
  });
});
