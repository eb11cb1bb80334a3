/**
 * Names and numbers fixed by MCP 2026-07-28 and the Tasks extension.
 * Everything else in the project refers to these, never to string literals.
 */

/** The only protocol revision this project speaks (C1, C2). */
export const PROTOCOL_VERSION = '2026-07-28';

/** The Tasks extension identifier, used in capabilities on both sides (T1). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Reserved `_meta` keys of the per-request envelope (C2, C6, C9). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** JSON-RPC and MCP error codes (C7). Matched by number, never by class. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Methods this project sends or serves. */
export const Method = {
  discover: 'server/discover',
  toolsList: 'tools/list',
  toolsCall: 'tools/call',
  tasksGet: 'tasks/get',
  tasksUpdate: 'tasks/update',
  tasksCancel: 'tasks/cancel',
  /** 2025-11-25 only; answered -32601 (T21, M1). */
  tasksResult: 'tasks/result',
  /** 2025-11-25 only; answered -32601 (T21). */
  tasksList: 'tasks/list',
  subscriptionsListen: 'subscriptions/listen',
  subscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
  notificationsTasks: 'notifications/tasks',
  elicitationCreate: 'elicitation/create',
} as const;
