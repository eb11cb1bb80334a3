/**
 * The one control message between the page and a server worker: "serve
 * this port as this identity". Everything after it is MCP JSON-RPC on the port.
 */
import { z } from 'zod';

export const ConnectMessageSchema = z.object({
  type: z.literal('connect'),
  /** The identity the page client connects as; tasks are bound to it (T20). */
  identity: z.string().min(1).max(200),
});
export type ConnectMessage = z.infer<typeof ConnectMessageSchema>;
