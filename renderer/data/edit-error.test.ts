import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../shared/bridge';
import { editErrorWords } from './edit-error';

const invalid = (field: string, message: string) =>
  new BridgeError({
    code: 'invalid-input',
    message: 'the input is not valid',
    fieldErrors: [{ field, message }],
  });

describe('editErrorWords', () => {
  it('says what is wrong with which field in plain words, no schema jargon or paths', () => {
    expect(
      editErrorWords(
        invalid('fields.taskTitle', 'Too big: expected string to have <=500 characters'),
      ),
    ).toBe('The title is longer than 500 characters.');
    expect(editErrorWords(invalid('patch.taskTitle', 'must not be blank'))).toBe(
      'The title cannot be empty.',
    );
    expect(
      editErrorWords(invalid('name', 'Too small: expected string to have >=1 characters')),
    ).toBe('The name cannot be empty.');
    expect(editErrorWords(invalid('patch.dueDate', 'must be a date'))).toBe(
      'The due date: must be a date.',
    );
  });

  it('keeps the message of other errors', () => {
    expect(editErrorWords(new Error('disk full'))).toBe('disk full');
  });
});
