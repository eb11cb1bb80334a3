import { probeFails, taskEnds, taskIs, wireShows } from '../expect.ts';
import { resultOf, taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { probesAnswered, taskFinished } from '../waits.ts';

export const ttlExpiry = defineScenario({
  id: 'ttl-expiry',
  title: 'TTL expiry, then -32602',
  summary:
    'A task outliving its ttlMs is marked failed; later the server deletes it, and its id answers -32602 like any unknown id.',
  specIds: ['T13', 'T6', 'C7'],
  steps: [
    {
      id: 'expire',
      title: 'A job slower than its TTL',
      narration:
        'flash_sale_quote gets a ttlMs of 4000, but its pricing job needs 10 s. At createdAt + ttlMs the server marks the task failed with an "expired" error.',
      run: (stage) => stage.callTool('flash_sale_quote', { sku: 'SKU-1234' }, true),
      until: taskFinished('flash_sale_quote'),
      timeoutMs: 15_000,
      predict: {
        question: 'The TTL passes before the job is done. The task ends...',
        choices: ['failed', 'completed', 'cancelled'],
        actual: (obs) => taskOf(obs, 'flash_sale_quote')?.final ?? 'still running',
      },
      expect: [
        wireShows(
          'ttl',
          'the CreateTaskResult says ttlMs 4000 (T6)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row) => resultOf(row)?.['ttlMs'] === 4000,
        ),
        taskEnds('failed', 'flash_sale_quote', 'failed'),
        taskIs(
          'expired',
          'its error says the task expired (T13)',
          'flash_sale_quote',
          (task) => /expired/i.test(task.error?.message ?? ''),
          (task) => `error ${task.error ? task.error.message : 'none'}`,
        ),
      ],
    },
    {
      id: 'gone',
      title: 'Later, the id is unknown',
      narration:
        'This server deletes a flash-sale quote 4 s after it expired. We wait, then ask tasks/get for the old id: the server answers exactly as for an id it never issued.',
      delayMs: 5500,
      run: (stage, { obs }) =>
        stage.probe(
          'tasks/get after deletion',
          'tasks/get',
          { taskId: taskOf(obs, 'flash_sale_quote')?.taskId ?? '' },
          { declare: true },
        ),
      until: probesAnswered('tasks/get after deletion'),
      expect: [
        probeFails(
          'not-found',
          'tasks/get for the deleted id answered -32602 (T13)',
          'tasks/get after deletion',
          -32602,
        ),
      ],
    },
  ],
});
