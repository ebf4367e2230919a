/** Killed while the server holds the answer, on a server that ignores Idempotency-Key (held-answer.ts). */
import { describeHeldAnswer } from './held-answer';

describeHeldAnswer('ignores');
