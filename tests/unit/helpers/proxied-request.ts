/**
 * The headers of a `tasks/get` POST as a client sends it through a proxy
 * (the cluster's balancer, the CORS proxy): what a proxy must pass on as it
 * came, the bearer token and the `Mcp-*` routing headers included.
 */
export const PROXIED_TASKS_GET_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: 'Bearer alice',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tasks/get',
  'mcp-name': 't-x',
};
