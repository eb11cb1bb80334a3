/**
 * The colour a message's gist takes in the wire log and the sequence view,
 * from what the message says rather than from its text: the task status it
 * carries, in the status badges' colours (`tone-*` in theme.css). Errors
 * and invalid messages are coloured by their kind, not here.
 */
import type { TaskStatus } from '../protocol/task.ts';

export type MessageTone = TaskStatus | 'none';

/**
 * The task status a message carries; for a `tools/call` answered
 * `input_required` before any task exists (T16), `input_required` too.
 */
export function messageTone(message: {
  status: TaskStatus | undefined;
  resultType: string | undefined;
}): MessageTone {
  if (message.status !== undefined) return message.status;
  if (message.resultType === 'input_required') return 'input_required';
  return 'none';
}
