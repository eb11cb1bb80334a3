/**
 * What `tools/list` answers: each tool's name, title, description and input
 * JSON Schema. The hosts build a fresh SDK server per request, so anything
 * built inside the server factory is built again for every request; turning
 * the tools' zod schemas into JSON Schema cost several times a whole
 * `tasks/get`. A server's tools never change while it runs, so the listing
 * is built once, on the first `tools/list`, and shared by every request.
 */
import { z } from 'zod';
import type { ToolDefinition } from './tool.ts';

/** One entry of `tools/list`. No `execution.taskSupport`: whether a call becomes a task is decided per request (T2, M2). */
export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

/** Returns the listing of `tools`, building it on the first call only. */
export function toolListing(tools: readonly ToolDefinition[]): () => readonly ListedTool[] {
  let listed: readonly ListedTool[] | undefined;
  return () =>
    (listed ??= tools.map((tool) => ({
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: toolInputSchema(tool.args),
    })));
}

function toolInputSchema(schema: z.ZodType): ListedTool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json['$schema'];
  return { ...json, type: 'object' };
}
