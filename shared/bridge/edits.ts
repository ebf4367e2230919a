import { editCommand, editResult } from '../edits/commands';
import { method } from './define';

/** Every edit goes through this one method: applied to the replica at once, queued for the server. */
export const editMethods = {
  'edits.apply': method(editCommand, editResult),
};
