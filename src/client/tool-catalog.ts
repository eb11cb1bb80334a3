/**
 * The server's tools, as `tools/list` describes them. Validated, never cast:
 * a malformed entry is dropped rather than trusted. Note what is absent on
 * 2026-07-28: no `execution.taskSupport` (T2, M2).
 */
import { z } from 'zod';
import { Method } from '../protocol/constants.ts';
import type { RpcClient } from './rpc-client.ts';

export const ToolInfoSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

const ToolsListResultSchema = z.looseObject({ tools: z.array(z.unknown()) });

/** Lists the server's tools (one page; the playground server has no cursor). */
export async function listTools(
  client: RpcClient,
  options: { tasks: boolean },
): Promise<ToolInfo[]> {
  const result = ToolsListResultSchema.parse(await client.request(Method.toolsList, {}, options));
  return result.tools.flatMap((tool) => {
    const parsed = ToolInfoSchema.safeParse(tool);
    return parsed.success ? [parsed.data] : [];
  });
}
