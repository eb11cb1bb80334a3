import { z } from 'zod';
import { ElicitResultSchema } from '../../protocol/elicitation.ts';
import { defineTool, textResult } from '../tool.ts';

/** Conformance fixture: asks one question through `inputRequests`, then finishes on the answer (T14, T15). */
export const confirmDelete = defineTool({
  name: 'confirm_delete',
  title: 'Confirm delete',
  description:
    'Asks for confirmation during the task (input_required), then deletes or keeps the file.',
  args: z.object({ filename: z.string().default('report.txt').describe('The file to delete') }),
  execution: 'task-required',
  pollIntervalMs: 500,
  // Resumable: the only state is the answer, which a resumed run gets back from the task.
  resumable: true,
  run: async ({ args, askInput }) => {
    const answers = await askInput({
      confirm: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: `Delete ${args.filename}?`,
          requestedSchema: {
            type: 'object',
            properties: {
              confirm: {
                type: 'boolean',
                title: 'Delete it',
                description: `Permanently delete ${args.filename}`,
              },
            },
            required: ['confirm'],
          },
        },
      },
    });
    const answer = ElicitResultSchema.safeParse(answers['confirm']);
    if (!answer.success) return textResult(`Kept ${args.filename}: the answer could not be read`);
    if (answer.data.action === 'accept' && answer.data.content?.['confirm'] === true)
      return textResult(`Deleted ${args.filename}`);
    // Say which answer kept the file: an accepted form with the box unticked reads like a yes otherwise.
    const why = {
      accept: '"Delete it" was left unticked in the accepted form',
      decline: 'the question was declined',
      cancel: 'the question was dismissed (cancel)',
    }[answer.data.action];
    return textResult(`Kept ${args.filename}: deletion was not confirmed (${why})`);
  },
});
