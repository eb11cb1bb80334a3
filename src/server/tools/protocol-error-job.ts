import { z } from 'zod';
import { ErrorCode } from '../../protocol/constants.ts';
import { defineTool, JobProtocolError } from '../tool.ts';

/** Conformance fixture: execution hits a protocol-level error, so the task ends `failed` with `error` (T11). */
export const protocolErrorJob = defineTool({
  name: 'protocol_error_job',
  title: 'Protocol error job',
  description:
    'Fails below the tool: the task ends failed with a JSON-RPC error object, not a tool result (T11).',
  args: z.object({}),
  execution: 'task-required',
  pollIntervalMs: 250,
  // Resumable: it has no effects, so running it again is harmless.
  resumable: true,
  run: async ({ sleep }) => {
    await sleep(500);
    throw new JobProtocolError(
      ErrorCode.InternalError,
      'Internal error: the worker running this job crashed',
    );
  },
});
