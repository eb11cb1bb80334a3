/**
 * Every scenario, by id. Plain data importable from Node (no Svelte): the
 * page opens one with `?scenario=<id>`, and tests read `specIds`.
 */
import { cancelRace, ignoresCancel } from './catalog/cancel.ts';
import { createdNotSuccess } from './catalog/created-not-success.ts';
import { clusterEarlyHandle } from './catalog/cluster-early-handle.ts';
import { clusterAnyNode } from './catalog/cluster-any-node.ts';
import { clusterPerNodeMemory } from './catalog/cluster-per-node-memory.ts';
import { clusterSticky } from './catalog/cluster-sticky.ts';
import { clusterTakeover } from './catalog/cluster-takeover.ts';
import { dropAfterCreate } from './catalog/drop-after-create.ts';
import { extensionOff } from './catalog/extension-off.ts';
import { handleNotSession } from './catalog/handle-not-session.ts';
import { happyPath } from './catalog/happy-path.ts';
import { inputRequiredOnce, partialAnswers } from './catalog/input.ts';
import { killDurableStore, killMemoryStore } from './catalog/kill-stores.ts';
import { lostHandle } from './catalog/lost-handle.ts';
import { lostRequest } from './catalog/lost-request.ts';
import { noToolFlag } from './catalog/no-tool-flag.ts';
import { pollIntervalHonoured, pushAndPoll } from './catalog/polling.ts';
import { reloadMidTask } from './catalog/reload-mid-task.ts';
import { removedMethods } from './catalog/removed-methods.ts';
import { resultType } from './catalog/result-type.ts';
import { toolVsProtocolError } from './catalog/tool-vs-protocol-error.ts';
import { ttlExpiry } from './catalog/ttl-expiry.ts';
import type { ScenarioDefinition } from './scenario.ts';

/** In the order the Scenarios list shows them. */
export const scenarios = [
  happyPath,
  resultType,
  extensionOff,
  noToolFlag,
  removedMethods,
  dropAfterCreate,
  lostHandle,
  lostRequest,
  reloadMidTask,
  killMemoryStore,
  killDurableStore,
  inputRequiredOnce,
  partialAnswers,
  cancelRace,
  ignoresCancel,
  toolVsProtocolError,
  createdNotSuccess,
  ttlExpiry,
  handleNotSession,
  pollIntervalHonoured,
  pushAndPoll,
  clusterAnyNode,
  clusterPerNodeMemory,
  clusterSticky,
  clusterTakeover,
  clusterEarlyHandle,
] as const;

export type ScenarioId = (typeof scenarios)[number]['id'];

export const SCENARIO_IDS: readonly ScenarioId[] = scenarios.map((s) => s.id);

export function isScenarioId(value: string | null | undefined): value is ScenarioId {
  return SCENARIO_IDS.some((id) => id === value);
}

export function scenarioById(id: ScenarioId): ScenarioDefinition<ScenarioId> {
  return scenarios.find((s) => s.id === id)!;
}
