/**
 * One `tools/call` round, classified by `resultType` (C4): a task handle
 * (T7), a request for input before anything starts (T16), or an ordinary
 * `CallToolResult`. A missing `resultType` is an older server's `complete`.
 */
import { z } from 'zod';
import { Method } from '../protocol/constants.ts';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  InputRequestSchema,
  type CallToolResult,
  type CreateTaskResult,
  type InputRequest,
} from '../protocol/task.ts';
import type { InvalidResponseError } from './rpc-error.ts';
import type { RpcClient } from './rpc-client.ts';

export type ToolCallOutcome =
  | { kind: 'task'; task: CreateTaskResult }
  | {
      kind: 'input_required';
      inputRequests: Record<string, InputRequest>;
      requestState: string | undefined;
    }
  | { kind: 'result'; result: CallToolResult };

const InputRequiredResultSchema = z.looseObject({
  resultType: z.literal('input_required'),
  inputRequests: z.record(z.string(), InputRequestSchema),
  requestState: z.string().optional(),
});

export interface ToolCallRequest {
  name: string;
  arguments: Record<string, unknown>;
  /** Declare the tasks extension on this request (T1). */
  tasks: boolean;
  /** Answers to an earlier round's `inputRequests` (T16). */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

function invalid(message: string): InvalidResponseError {
  return { kind: 'invalid-response', message };
}

/**
 * Sends one `tools/call` and classifies the answer. Rejects with a
 * `CallError`: `{kind: 'rpc', code, ...}` for a JSON-RPC error (e.g. -32021,
 * T3), `{kind: 'invalid-response'}` for a result of the wrong shape.
 */
export async function callTool(client: RpcClient, call: ToolCallRequest): Promise<ToolCallOutcome> {
  const params: Record<string, unknown> = {
    name: call.name,
    arguments: call.arguments,
    ...(call.inputResponses ? { inputResponses: call.inputResponses } : {}),
    ...(call.requestState !== undefined ? { requestState: call.requestState } : {}),
  };
  const result = await client.request(Method.toolsCall, params, { tasks: call.tasks });
  switch (result['resultType']) {
    case 'task': {
      // T3: a task handle to a request that did not declare the extension is a server bug.
      if (!call.tasks)
        throw invalid('task result on a request that did not declare the tasks extension (T3)');
      const task = CreateTaskResultSchema.safeParse(result);
      if (!task.success)
        throw invalid(`malformed CreateTaskResult: ${z.prettifyError(task.error)}`);
      return { kind: 'task', task: task.data };
    }
    case 'input_required': {
      const input = InputRequiredResultSchema.safeParse(result);
      if (!input.success)
        throw invalid(`malformed input_required result: ${z.prettifyError(input.error)}`);
      return {
        kind: 'input_required',
        inputRequests: input.data.inputRequests,
        requestState: input.data.requestState,
      };
    }
    case 'complete':
    case undefined: {
      const tool = CallToolResultSchema.safeParse(result);
      if (!tool.success) throw invalid(`malformed CallToolResult: ${z.prettifyError(tool.error)}`);
      return { kind: 'result', result: tool.data };
    }
    default:
      throw invalid(`unknown resultType ${JSON.stringify(result['resultType'])}`);
  }
}
