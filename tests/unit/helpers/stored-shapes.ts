/**
 * Stored tasks in every shape a `tasks/get` shows (working, resumed, asking for input,
 * completed, a tool error, failed, cancelled), owned by `identity`, none of which a job or
 * the clock will change: what the direct `tasks/get` paths are compared on.
 */
import { ownerDigest } from '../../../src/server/identity.ts';
import type { TaskRecord } from '../../../src/server/task-store.ts';

export async function everyStoredShape(identity: string): Promise<TaskRecord[]> {
  const owner = await ownerDigest(identity);
  const at = Date.parse('2026-07-28T10:00:00.000Z');
  const base = (taskId: string): TaskRecord => ({
    taskId,
    owner,
    toolName: 'slow_compute',
    arguments: { seconds: 3 },
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: null,
    pollIntervalMs: 750,
    inputRequests: {},
    issuedInputKeys: [],
    inputResponses: {},
    cancelRequested: false,
    // Held by a runner that is elsewhere and alive, so nothing here adopts the job.
    lease: { holder: 'elsewhere', expiresAt: Date.now() + 3_600_000 },
  });
  return [
    { ...base('task-working'), statusMessage: 'step 2 of 3' },
    {
      ...base('task-resumed'),
      checkpoint: { data: { step: 2 }, label: 'step 2 of 3', savedAt: at + 2000 },
      resumes: 1,
    },
    {
      ...base('task-input'),
      status: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Sure?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          },
        },
      },
      issuedInputKeys: ['confirm'],
    },
    {
      ...base('task-completed'),
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    },
    {
      ...base('task-tool-error'),
      status: 'completed',
      result: { content: [{ type: 'text', text: 'no' }], isError: true },
    },
    {
      ...base('task-failed'),
      status: 'failed',
      statusMessage: 'it broke',
      error: { code: -32603, message: 'it broke' },
    },
    { ...base('task-cancelled'), status: 'cancelled', cancelRequested: true },
  ];
}
