/**
 * What the HTTP bench parts send with every request: the per-request `_meta`
 * envelope (C2) declaring the tasks extension (T1), and the headers a
 * Streamable HTTP client sends (README "Talking to the Node server by hand",
 * T19), for one bearer identity.
 */
import { PROTOCOL_VERSION } from '../../src/protocol/constants.ts';

/** The bearer identity every bench request runs as, so its tasks are all one caller's. */
export const BENCH_TOKEN = 'bench';

/** The `_meta` of a request from `clientName`, declaring the tasks extension. */
export function benchMeta(clientName: string): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    },
  };
}

/** The HTTP headers of a request for `method`, routed by `name` (a tool name or a taskId). */
export function mcpHeaders(method: string, name: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    authorization: `Bearer ${BENCH_TOKEN}`,
    'mcp-method': method,
    'mcp-name': name,
  };
}
