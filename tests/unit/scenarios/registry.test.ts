/** The scenario registry: the fixed ids others link to, valid spec ids, and well-formed steps. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isScenarioId,
  scenarioById,
  scenarios,
  SCENARIO_IDS,
} from '../../../src/scenarios/index.ts';

/** Every rule id the digest defines (C1..C10, T1..T22, M1..M9). */
const DIGEST_IDS = new Set(
  [
    ...readFileSync(
      resolve(import.meta.dirname, '../../../docs/tasks-2026-07-28.md'),
      'utf8',
    ).matchAll(/^- ([CTM]\d+) /gm),
  ].map((m) => m[1]!),
);

describe('scenario registry', () => {
  it('has exactly the ids other pages link to with ?scenario=<id>', () => {
    expect([...SCENARIO_IDS].sort()).toEqual(
      [
        'happy-path',
        'extension-off',
        'drop-after-create',
        'reload-mid-task',
        'kill-memory-store',
        'kill-durable-store',
        'input-required-once',
        'partial-answers',
        'cancel-race',
        'ignores-cancel',
        'tool-vs-protocol-error',
        'ttl-expiry',
        'removed-methods',
        'no-tool-flag',
        'handle-not-session',
        'poll-interval-honoured',
        'push-and-poll',
      ].sort(),
    );
    expect(isScenarioId('happy-path')).toBe(true);
    expect(isScenarioId('nope')).toBe(false);
    expect(scenarioById('ttl-expiry').title).toBe('TTL expiry, then -32602');
  });

  it('lists only spec ids the digest defines', () => {
    expect(DIGEST_IDS.size).toBe(10 + 22 + 9);
    for (const scenario of scenarios) {
      expect(scenario.specIds.length, scenario.id).toBeGreaterThan(0);
      expect(
        scenario.specIds.filter((id) => !DIGEST_IDS.has(id)),
        scenario.id,
      ).toEqual([]);
    }
  });

  it('names the misconceptions where the issue asks for them (M1..M5)', () => {
    const demonstrating = (id: string) =>
      scenarios.filter((s) => s.specIds.includes(id)).map((s) => s.id);
    expect(demonstrating('M1')).toContain('removed-methods');
    expect(demonstrating('M2')).toContain('no-tool-flag');
    expect(demonstrating('M3')).toContain('drop-after-create');
    expect(demonstrating('M4')).toContain('extension-off');
    expect(demonstrating('M5')).toContain('handle-not-session');
    expect(demonstrating('T20')).toContain('handle-not-session');
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
