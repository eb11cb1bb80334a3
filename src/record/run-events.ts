/**
 * The events of a run file, one kind per session event the page's views
 * use, each carrying the very value the live session gave them (a
 * `WireEntry`, a `PacketUpdate`, a `FaultNotice`...), so a replay can feed
 * the views what they saw live. Beside those: the network's fault log, the
 * armed rules, tool calls and their answers, each task actor's recorded
 * steps, the server x-ray, and how many older events the recorder dropped.
 *
 * Every schema here is written so its parsed value is assignable to the
 * session's own type (a unit test checks each pair). JSON has no
 * `undefined`: a field the session types as `T | undefined` (a connection's
 * `detail`, a store status's `running` and `error`, a step's `lastError`
 * and `link`) is left out of the file when undefined, so a reader hands it
 * on as `{ detail: undefined, ...status }`.
 */
import { z } from 'zod';
import { HttpFactsSchema } from '../protocol/http-facts.ts';
import { TASK_STORE_KINDS } from '../protocol/worker-control.ts';
import { TaskStatusSchema } from '../protocol/task.ts';
import { FaultRuleSchema, LinkConditionsSchema, LinkDirectionSchema } from './run-setup.ts';

const int = () => z.number().int();
const time = () => z.number();
const nodeNumber = () => z.number().int().min(1).max(5);

const LossReasonSchema = z.enum(['loss', 'link-dropped', 'rule']);

export const NetMarkSchema = z.object({
  packet: int(),
  link: int(),
  direction: LinkDirectionSchema,
  sentAt: time(),
  deliveredAt: time().optional(),
  delayMs: z.number(),
  lost: LossReasonSchema.optional(),
  duplicated: z.boolean().optional(),
  duplicate: z.boolean().optional(),
  reordered: z.boolean().optional(),
  heldMs: z.number().optional(),
  rule: z.string().optional(),
});

/** One message that crossed a link (`WireEntry`); `message` is its exact JSON. */
export const WireEntrySchema = z.object({
  seq: int(),
  at: time(),
  direction: LinkDirectionSchema,
  message: z.unknown(),
  reissueOf: z.union([z.number(), z.string()]).optional(),
  reissueReason: z.enum(['link', 'timeout']).optional(),
  connection: z.string().optional(),
  http: HttpFactsSchema.optional(),
  net: NetMarkSchema.optional(),
  node: nodeNumber().optional(),
});

export const PacketUpdateSchema = z.object({
  packet: int(),
  at: time(),
  node: nodeNumber().optional(),
  deliveredAt: time().optional(),
  reordered: z.boolean().optional(),
  lost: LossReasonSchema.optional(),
  rule: z.string().optional(),
});

export const FaultNoticeSchema = z.object({
  id: int(),
  afterSeq: int(),
  at: time(),
  kind: z.enum(['drop', 'kill', 'restart', 'offline', 'online']),
  text: z.string(),
  taskIds: z.array(z.string()),
});

const stamp = { seq: int(), at: time() };
const packetFacts = {
  direction: LinkDirectionSchema,
  packet: int(),
  link: int(),
  method: z.string().optional(),
  taskId: z.string().optional(),
};

/** One event of the network's fault log (`FaultEvent`). */
export const FaultEventSchema = z.discriminatedUnion('kind', [
  z.object({ ...stamp, kind: z.literal('packet.lost'), reason: LossReasonSchema, ...packetFacts }),
  z.object({ ...stamp, kind: z.literal('packet.duplicated'), ...packetFacts }),
  z.object({
    ...stamp,
    kind: z.literal('packet.reordered'),
    heldMs: z.number().optional(),
    ...packetFacts,
  }),
  z.object({ ...stamp, kind: z.literal('link.opened'), link: int() }),
  z.object({
    ...stamp,
    kind: z.literal('link.dropped'),
    link: int(),
    reason: z.string(),
    inFlight: int(),
  }),
  z.object({ ...stamp, kind: z.literal('connect.refused'), reason: z.string() }),
  z.object({ ...stamp, kind: z.literal('network.offline'), untilAt: time() }),
  z.object({ ...stamp, kind: z.literal('network.online') }),
  z.object({ ...stamp, kind: z.literal('server.killed'), generation: int() }),
  z.object({ ...stamp, kind: z.literal('server.started'), generation: int() }),
  z.object({
    ...stamp,
    kind: z.enum(['node.killed', 'node.started', 'node.cut', 'node.rejoined']),
    node: nodeNumber(),
    generation: int(),
  }),
  z.object({
    ...stamp,
    kind: z.literal('rule.fired'),
    ruleId: z.string(),
    rule: z.string(),
    packet: int(),
    taskId: z.string().optional(),
  }),
  z.object({
    ...stamp,
    kind: z.literal('conditions.changed'),
    conditions: LinkConditionsSchema,
    seed: int(),
  }),
]);

export const ConnectionStatusSchema = z.object({
  state: z.enum(['connecting', 'open', 'reconnecting', 'closed']),
  detail: z.string().optional(),
  info: z.object({
    attempt: int(),
    retryAt: time().optional(),
    reason: z.string().optional(),
  }),
});

export const ServerStatusSchema = z.object({ running: z.boolean(), generation: int() });

export const PushStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('off') }),
  z.object({ state: z.literal('idle') }),
  z.object({ state: z.literal('waiting'), reason: z.string() }),
  z.object({ state: z.literal('opening'), id: int(), taskIds: z.array(z.string()) }),
  z.object({
    state: z.literal('open'),
    id: int(),
    taskIds: z.array(z.string()),
    agreed: z.array(z.string()),
    pushes: int(),
  }),
  z.object({ state: z.literal('dropped'), reason: z.string() }),
  z.object({ state: z.literal('refused'), code: int().optional(), message: z.string() }),
]);

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** What the page sent as one `tools/call` round (`ToolCallRequest`). */
export const ToolCallRequestSchema = z.object({
  name: z.string(),
  arguments: JsonObjectSchema,
  tasks: z.boolean(),
  inputResponses: JsonObjectSchema.optional(),
  requestState: z.string().optional(),
});

/** How the round ended: `ToolCallOutcome`, or the `CallError` it was rejected with. */
export const ToolAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('task'), task: z.looseObject({ taskId: z.string() }) }),
  z.object({
    kind: z.literal('input_required'),
    inputRequests: JsonObjectSchema,
    requestState: z.string().optional(),
  }),
  z.object({ kind: z.literal('result'), result: JsonObjectSchema }),
  z.object({
    kind: z.literal('error'),
    error: z.object({
      kind: z.enum(['rpc', 'invalid-response', 'closed']),
      message: z.string(),
      code: int().optional(),
      data: z.unknown().optional(),
    }),
  }),
]);

/** An XState state value: a state's name, or a map of region to state value. */
export type RunStateValue = string | { [region: string]: RunStateValue | undefined };
export const StateValueSchema: z.ZodType<RunStateValue> = z.union([
  z.string(),
  z.record(
    z.string(),
    z.lazy(() => StateValueSchema),
  ),
]);

/** One step of a task actor, as the history view records it (`HistoryStep`). */
export const TaskStepSchema = z.object({
  index: int().min(0),
  at: time(),
  eventType: z.string(),
  event: z.string(),
  value: StateValueSchema,
  active: z.array(z.string()),
  entered: z.array(z.string()),
  taken: z.array(z.string()),
  internal: z.array(z.string()),
  serverStatus: TaskStatusSchema,
  cancelRequested: z.boolean(),
  polls: int(),
  pollIntervalMs: z.number(),
  pendingInputs: int(),
  lastError: z.string().optional(),
  link: z.object({ reason: z.string(), attempt: int() }).optional(),
});

/** What the server's store held for a task (`StoredTaskReading`). */
export const StoredTaskReadingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stored'), status: TaskStatusSchema, since: time() }),
  z.object({ kind: z.literal('not-stored'), deleted: z.boolean() }),
  z.object({
    kind: z.literal('no-xray'),
    reason: z.enum(['server down', 'server starting', 'not our server']),
  }),
]);

export const ServerStoreStatusSchema = z.object({
  chosen: z.enum(TASK_STORE_KINDS),
  running: z.enum(TASK_STORE_KINDS).optional(),
  error: z.string().optional(),
});

/** `at`: ms since the run's `recordedAt`, on the page's clock. */
const at = z.number().min(0);
const event = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ at, kind: z.literal(kind), ...shape });

export const RunEventSchema = z.discriminatedUnion('kind', [
  /** The recorder kept only the newest events: `count` older ones were dropped before this one. */
  event('dropped', { count: int().min(1) }),
  event('wire', { entry: WireEntrySchema }),
  /** The wire log kept from before the reload, oldest first (session event `wire-restored`). */
  event('wire-restored', { entries: z.array(WireEntrySchema) }),
  event('wire-cleared', {}),
  /** A scenario asked for a clean page (session event `reset`). */
  event('reset', {}),
  event('packet', { update: PacketUpdateSchema }),
  /** A fault notice (drop, kill, restart, offline) placed among the wire entries. */
  event('fault', { notice: FaultNoticeSchema }),
  /** An event of the network's fault log (packet faults, rules fired, conditions and seed changed). */
  event('fault-log', { event: FaultEventSchema }),
  /** The armed rules changed: the ones armed now, first armed first. */
  event('rules', { rules: z.array(FaultRuleSchema) }),
  event('connection', { status: ConnectionStatusSchema }),
  event('server', { status: ServerStatusSchema }),
  event('server-store', { status: ServerStoreStatusSchema }),
  event('declare-tasks', { on: z.boolean() }),
  event('push', { status: PushStatusSchema }),
  /** One `tools/call` round began; `call` numbers the rounds from 1 and ties the answer to it. */
  event('tool-call', { call: int().min(1), request: ToolCallRequestSchema }),
  event('tool-answer', { call: int().min(1), answer: ToolAnswerSchema }),
  /** The page began to follow a task (a new handle, or one carried on after a reload). */
  event('task-followed', { taskId: z.string(), tool: z.string(), restored: z.boolean() }),
  event('task-step', { taskId: z.string(), step: TaskStepSchema }),
  event('xray', { taskId: z.string(), reading: StoredTaskReadingSchema }),
]);

export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventKind = RunEvent['kind'];
/** An event without its `at`, of any kind (Omit itself does not distribute over a union). */
export type RunEventBody = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, 'at'>
    : never
  : never;
/** The event of one kind. */
export type RunEventOf<K extends RunEventKind> = Extract<RunEvent, { kind: K }>;
export type RunWireEntry = z.infer<typeof WireEntrySchema>;
export type RunTaskStep = z.infer<typeof TaskStepSchema>;
