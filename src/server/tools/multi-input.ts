import { z } from 'zod';
import { ElicitResultSchema } from '../../protocol/elicitation.ts';
import { defineTool, textQuestion, textResult } from '../tool.ts';

/** Conformance fixture: two input requests outstanding at once; partial answers keep it waiting (T15). */
export const multiInput = defineTool({
  name: 'multi_input',
  title: 'Multiple inputs',
  description:
    'Asks two questions at once. Answer one and the task stays input_required until the other arrives (T15).',
  args: z.object({}),
  execution: 'task-required',
  pollIntervalMs: 500,
  // Resumable: the only state is the answers, which a resumed run gets back from the task.
  resumable: true,
  run: async ({ askInput }) => {
    const answers = await askInput({
      name: textQuestion('What is your name?', 'name', 'Name'),
      color: textQuestion('What is your favourite colour?', 'color', 'Colour'),
    });
    const value = (key: string, field: string): string => {
      const parsed = ElicitResultSchema.safeParse(answers[key]);
      return parsed.success && parsed.data.action === 'accept'
        ? String(parsed.data.content?.[field] ?? '')
        : `(${parsed.success ? parsed.data.action : 'invalid'})`;
    };
    return textResult(`name=${value('name', 'name')}, color=${value('color', 'color')}`);
  },
});
