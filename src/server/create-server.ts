/**
 * The one server factory both hosts serve (the worker over a MessagePort,
 * Node over Streamable HTTP). The official SDK does the core protocol:
 * envelope checks, version negotiation (C3), `server/discover` (C5),
 * `resultType` and `serverInfo` stamping (C4, C6). This file adds what the
 * SDK lacks: the Tasks extension's `tools/call` behaviour and `tasks/*`.
 */
import {
  ProtocolError,
  Server,
  type McpRequestContext,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ErrorCode, TASKS_EXTENSION, Method } from '../protocol/constants.ts';
import { declaresTasks } from '../protocol/envelope.ts';
import { ANONYMOUS, ownerDigest } from './identity.ts';
import { RpcFault, type Caller, type TaskService } from './task-service.ts';
import { TaskStoreUnavailable } from './task-store.ts';
import { toolListing } from './tool-listing.ts';

export const SERVER_INFO = { name: 'mcp-tasks-playground', version: '0.1.0' } as const;

/**
 * The SDK's `tools/call` wrapper knows only `CallToolResult` and would add
 * `content: []` to a task handle. A `CreateTaskResult` is its own result
 * family (T7), so it bypasses that normalisation; every other result still
 * goes through the SDK's validation (docs/sdk-notes.md, "Server").
 */
class TasksServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: Parameters<Server['_wrapHandler']>[1],
  ): ReturnType<Server['_wrapHandler']> {
    if (method !== Method.toolsCall) return super._wrapHandler(method, handler);
    return async (request, ctx) => {
      const result = await handler(request, ctx);
      if (result['resultType'] === 'task') return result;
      return super._wrapHandler(method, async () => result)(request, ctx);
    };
  }
}

const TaskIdParams = z.looseObject({ taskId: z.unknown() });
const CallParams = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Our own faults as the SDK's error, so they leave as JSON-RPC errors; a
 * store that cannot be reached is `-32603` saying so. Anything else is
 * returned as it is (the SDK answers it `-32603`).
 */
export function asProtocolError(error: unknown): unknown {
  if (error instanceof RpcFault) return new ProtocolError(error.code, error.message, error.data);
  if (error instanceof TaskStoreUnavailable)
    return new ProtocolError(ErrorCode.InternalError, error.message);
  return error;
}

async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asProtocolError(error);
  }
}

/**
 * Who is calling (the bearer token, T20; none: anonymous) and whether this
 * request's envelope declares the tasks extension (T1).
 */
export async function callerFrom(
  identity: string | undefined,
  envelope: Record<string, unknown> | undefined,
): Promise<Caller> {
  return {
    owner: await ownerDigest(identity ?? ANONYMOUS),
    declaresTasks: declaresTasks(envelope?.['io.modelcontextprotocol/clientCapabilities']),
  };
}

/** Reads who is calling and what they declared, from one request. */
function callerOf(
  context: McpRequestContext,
  envelope: Record<string, unknown> | undefined,
): Promise<Caller> {
  return callerFrom(context.authInfo?.token, envelope);
}

/** A factory for the SDK's serving entries: one fresh server instance per request (C1). */
export function createServerFactory(service: TaskService): McpServerFactory {
  const listing = toolListing(service.tools);
  return (context) => {
    const server = new TasksServer(SERVER_INFO, {
      capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
      instructions:
        'MCP Tasks Playground: tools that run as tasks when the request declares io.modelcontextprotocol/tasks.',
    });

    server.setRequestHandler(Method.toolsList, async () => ({ tools: [...listing()] }));

    server.setRequestHandler(Method.toolsCall, { params: CallParams }, async (params, ctx) =>
      answering(async () => {
        const caller = await callerOf(context, ctx.mcpReq.envelope);
        return service.callTool(
          caller,
          params.name,
          params.arguments,
          ctx.mcpReq.signal,
          ctx.mcpReq.inputResponses ?? {},
        );
      }),
    );

    server.setRequestHandler(Method.tasksGet, { params: TaskIdParams }, async (params, ctx) =>
      answering(async () =>
        service.getTask(await callerOf(context, ctx.mcpReq.envelope), params.taskId),
      ),
    );

    // The SDK lifts `inputResponses` out of the params into ctx.mcpReq (docs/sdk-notes.md, Server).
    server.setRequestHandler(Method.tasksUpdate, { params: TaskIdParams }, async (params, ctx) =>
      answering(async () => {
        await service.updateTask(
          await callerOf(context, ctx.mcpReq.envelope),
          params.taskId,
          ctx.mcpReq.inputResponses ?? {},
        );
        return {};
      }),
    );

    server.setRequestHandler(Method.tasksCancel, { params: TaskIdParams }, async (params, ctx) =>
      answering(async () => {
        await service.cancelTask(await callerOf(context, ctx.mcpReq.envelope), params.taskId);
        return {};
      }),
    );

    return server;
  };
}
