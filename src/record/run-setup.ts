/**
 * The setup of a run, as a schema: the network's seed, the link conditions,
 * the armed fault rules, the server store, the cluster's shape, the
 * extension switch and which server. A run file's `setup` is this, and the
 * "Copy link" address carries the same facts, so the two never disagree
 * about what a setup is.
 */
import { z } from 'zod';
import { LIMITS, type DirectionConditions } from '../net/link-conditions.ts';
import { TaskStoreKindSchema } from '../protocol/worker-control.ts';
import { ROUTING_POLICIES } from '../session/cluster/routing-policy.ts';
import { MAX_NODES, MIN_NODES } from '../session/cluster/cluster-endpoint.ts';

/** The largest seed `normalizeSeed` keeps. */
export const MAX_SEED = 999_999_999;

export const LinkDirectionSchema = z.enum(['out', 'in']);

const bounded = (key: keyof DirectionConditions) =>
  z.number().min(LIMITS[key].min).max(LIMITS[key].max);

export const DirectionConditionsSchema = z.object({
  latencyMs: bounded('latencyMs'),
  jitterMs: bounded('jitterMs'),
  lossRate: bounded('lossRate'),
  duplicateRate: bounded('duplicateRate'),
  reorderRate: bounded('reorderRate'),
});

export const LinkConditionsSchema = z.object({
  out: DirectionConditionsSchema,
  in: DirectionConditionsSchema,
});

export const MessageKindSchema = z.enum(['request', 'notification', 'result', 'error', 'invalid']);

/** A fault rule's trigger: every given field must equal the message's (`MessageMatch`). */
export const MessageMatchSchema = z.object({
  direction: LinkDirectionSchema,
  kind: MessageKindSchema.optional(),
  method: z.string().optional(),
  resultType: z.string().optional(),
  status: z.string().optional(),
});

/** The longest "go offline" a rule may ask for, s. */
export const MAX_OFFLINE_SECONDS = 600;

export const RuleActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('drop') }),
  z.object({
    kind: z.literal('offline'),
    seconds: z.number().int().min(1).max(MAX_OFFLINE_SECONDS),
  }),
  z.object({ kind: z.literal('kill') }),
  z.object({ kind: z.literal('restart') }),
  z.object({ kind: z.literal('lose') }),
]);

/** One armed rule, as the network's `RuleBook` holds it (`FaultRule`). */
export const FaultRuleSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  when: MessageMatchSchema,
  then: RuleActionSchema,
});

export const ClusterShapeSchema = z.object({
  nodes: z.number().int().min(MIN_NODES).max(MAX_NODES),
  policy: z.enum(ROUTING_POLICIES),
  /** `indexeddb`: one store every node shares; `memory`: each node its own. */
  store: TaskStoreKindSchema,
});

/** Which server the page talked to. A bearer token is never part of a run. */
export const ServerChoiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('built-in') }),
  z.object({ kind: z.literal('remote'), url: z.url({ protocol: /^https?$/ }) }),
]);

export const RunSetupSchema = z.object({
  /** The simulated network's seed: the same seed, conditions and rules draw the same fates. */
  seed: z.number().int().min(0).max(MAX_SEED),
  link: LinkConditionsSchema,
  /** The rules armed, first armed first. */
  rules: z.array(FaultRuleSchema),
  /** Where the server keeps its tasks. */
  store: TaskStoreKindSchema,
  cluster: ClusterShapeSchema,
  /** Whether each tools/call declares the tasks extension (T1). */
  declareTasks: z.boolean(),
  server: ServerChoiceSchema,
});

export type RunSetup = z.infer<typeof RunSetupSchema>;
export type RunFaultRule = z.infer<typeof FaultRuleSchema>;
export type RunLinkConditions = z.infer<typeof LinkConditionsSchema>;
