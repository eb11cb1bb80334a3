/**
 * The scenario registry: every scenario of the catalog is registered, each id
 * opens its scenario from `?scenario=<id>` and from every link the learning
 * material makes, spec ids are the digest's, and steps are well formed.
 */
import { describe, expect, it } from 'vitest';
import { SCENARIO_IDS as LINKED_IDS, scenarioHref } from '../../../src/learn/learn-ids.ts';
import {
  isScenarioId,
  scenarioById,
  scenarios,
  SCENARIO_IDS,
} from '../../../src/scenarios/index.ts';
import type { ScenarioDefinition } from '../../../src/scenarios/scenario.ts';
import { digestIds } from '../helpers/spec-citations.ts';

/** Every rule id the digest defines. */
const DIGEST_IDS = new Set(digestIds());

/** Every module of the catalog folder, read from disk rather than from a list. */
const CATALOG = import.meta.glob<Record<string, unknown>>('../../../src/scenarios/catalog/*.ts', {
  eager: true,
});

const isScenario = (value: unknown): value is ScenarioDefinition =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { id?: unknown }).id === 'string' &&
  Array.isArray((value as { steps?: unknown }).steps);

/** How the page reads an address: `?scenario=<id>` to the scenario it opens, or undefined. */
function opened(search: string): ScenarioDefinition | undefined {
  const id = new URLSearchParams(search).get('scenario');
  return isScenarioId(id) ? scenarioById(id) : undefined;
}

describe('scenario registry', () => {
  it('registers every scenario the catalog defines, once, and nothing else', () => {
    const files = Object.keys(CATALOG);
    expect(files.length).toBeGreaterThan(0);
    const defined = Object.entries(CATALOG).flatMap(([file, exports]) => {
      const found = Object.values(exports).filter(isScenario);
      expect(found.length, `${file} defines no scenario`).toBeGreaterThan(0);
      return found;
    });
    const registered = new Set<unknown>(scenarios);
    expect(defined.filter((s) => !registered.has(s)).map((s) => s.id)).toEqual([]);
    expect(scenarios.filter((s) => !defined.includes(s)).map((s) => s.id)).toEqual([]);
    expect(scenarios.length).toBe(defined.length);
  });

  it('gives each scenario a unique, URL-safe id that ?scenario= opens, and a title of its own', () => {
    expect(new Set(SCENARIO_IDS).size).toBe(scenarios.length);
    expect(new Set(scenarios.map((s) => s.title)).size).toBe(scenarios.length);
    for (const scenario of scenarios) {
      expect(encodeURIComponent(scenario.id), scenario.id).toBe(scenario.id);
      expect(opened(`?scenario=${scenario.id}`), scenario.id).toBe(scenario);
      expect(opened(`?view=play&scenario=${scenario.id}&speed=max`), scenario.id).toBe(scenario);
    }
    expect(opened('?scenario=no-such-scenario')).toBeUndefined();
    expect(opened('?scenario=')).toBeUndefined();
    expect(opened('')).toBeUndefined();
  });

  it('opens the scenario of every link the learning material makes', () => {
    for (const id of LINKED_IDS) expect(opened(scenarioHref(id))?.id, id).toBe(id);
  });

  it('lists only spec ids the digest defines', () => {
    expect(DIGEST_IDS.size).toBeGreaterThan(0);
    for (const scenario of scenarios) {
      expect(scenario.specIds.length, scenario.id).toBeGreaterThan(0);
      expect(
        scenario.specIds.filter((id) => !DIGEST_IDS.has(id)),
        scenario.id,
      ).toEqual([]);
    }
  });

  it('puts each misconception the issue asks a scenario for in that scenario', () => {
    const demonstrating = (id: string) =>
      scenarios.filter((s) => s.specIds.includes(id)).map((s) => s.id);
    expect(demonstrating('M1')).toContain('removed-methods');
    expect(demonstrating('M2')).toContain('no-tool-flag');
    expect(demonstrating('M3')).toContain('drop-after-create');
    expect(demonstrating('M4')).toContain('extension-off');
    expect(demonstrating('M5')).toContain('handle-not-session');
    expect(demonstrating('T20')).toContain('handle-not-session');
    expect(demonstrating('M6')).toContain('result-type');
    expect(demonstrating('C4')).toContain('result-type');
    expect(demonstrating('M7')).toContain('lost-handle');
    expect(demonstrating('C8')).toContain('lost-request');
  });

  it('every step has narration, unique ids, and something to judge by', () => {
    for (const scenario of scenarios) {
      const stepIds = scenario.steps.map((s) => s.id);
      expect(new Set(stepIds).size, scenario.id).toBe(stepIds.length);
      const expectationIds = scenario.steps.flatMap((s) => (s.expect ?? []).map((e) => e.id));
      expect(new Set(expectationIds).size, scenario.id).toBe(expectationIds.length);
      expect(expectationIds.length, scenario.id).toBeGreaterThan(0);
      for (const step of scenario.steps) {
        expect(step.narration.length, `${scenario.id}/${step.id}`).toBeGreaterThan(20);
        // A step with neither `until` nor expectations would end at once, judging nothing.
        expect(
          step.until !== undefined || (step.expect ?? []).length > 0,
          `${scenario.id}/${step.id}`,
        ).toBe(true);
        if (step.predict) {
          expect(step.predict.choices.length, `${scenario.id}/${step.id}`).toBeGreaterThanOrEqual(
            2,
          );
          // The drill holds back an action; a step without one would ask after the answer was already on screen.
          expect(
            step.run,
            `${scenario.id}/${step.id} asks a prediction but has no action to hold back`,
          ).toBeDefined();
          const at =
            step.predict.judgeAtStep === undefined
              ? stepIds.indexOf(step.id)
              : stepIds.indexOf(step.predict.judgeAtStep);
          expect(
            at,
            `${scenario.id}/${step.id}: judged at a later step that exists`,
          ).toBeGreaterThanOrEqual(stepIds.indexOf(step.id));
        }
      }
    }
  });
});
