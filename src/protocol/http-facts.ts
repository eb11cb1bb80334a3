/**
 * What HTTP said about one exchange with a remote server: the status, the
 * answer's content type, and the MCP headers the request carried (T19). One
 * shape for every side that keeps it: the HTTP transport records it
 * (`src/net/http-facts.ts`), the wire log shows it, the page store keeps it
 * across a reload, and a run file carries it (validated with this schema).
 */
import { z } from 'zod';

/** Longer `x-served-by` values are not a node's name; they are left out. */
export const MAX_SERVED_BY_CHARS = 64;

export const HttpFactsSchema = z.object({
  status: z.number().int(),
  statusText: z.string(),
  /** The answer's `Content-Type`, as sent. */
  contentType: z.string(),
  /** The request's `Mcp-*` headers, and `Authorization` with its token hidden. */
  requestHeaders: z.record(z.string(), z.string()),
  /** From the request's start to the answer's headers. */
  ms: z.number().min(0),
  /** The answer's `x-served-by`: the node a balancer sent the request to (`npm run cluster` names it). */
  servedBy: z.string().max(MAX_SERVED_BY_CHARS).optional(),
});
export type HttpFacts = z.infer<typeof HttpFactsSchema>;
