/**
 * A checked run handed from the parse worker to the page in slices: no
 * message carries more than a slice of events (each is a short task for the
 * page to take in), the page puts the run back together exactly as
 * `parseRunFile` reads it, and what is wrong with a file is one message.
 */
import { describe, expect, it } from 'vitest';
import { parseRunFile, serializeRunFile } from '../../../src/record/run-file.ts';
import {
  RunAssembler,
  transferMessages,
  TRANSFER_SLICE,
  type TransferMessage,
} from '../../../src/replay/run-transfer.ts';
import { syntheticRun } from '../../../scripts/bench/run-file.ts';
import { cancelRaceRun } from './run-fixture.ts';

/** What the page makes of the messages: the verdict, and its progress after each message. */
function assemble(messages: Iterable<TransferMessage>) {
  const assembler = new RunAssembler();
  const fractions: number[] = [];
  for (const message of messages) {
    const verdict = assembler.accept(message);
    if (verdict) return { verdict, fractions };
    fractions.push(assembler.fraction);
  }
  throw new Error('the messages ended before the run was whole');
}

describe('the checked run, worker to page', () => {
  it('comes in slices of at most TRANSFER_SLICE events, and is put back together as parseRunFile reads it', () => {
    const text = serializeRunFile(syntheticRun(2500));
    const messages = [...transferMessages(text)];
    const slices = messages.filter((m) => m.kind === 'events');
    const parsed = parseRunFile(text);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(slices.length).toBe(Math.ceil(parsed.run.events.length / TRANSFER_SLICE));
    for (const slice of slices) expect(slice.events.length).toBeLessThanOrEqual(TRANSFER_SLICE);
    const { verdict, fractions } = assemble(messages);
    expect(verdict).toEqual(parsed);
    // Progress rises with each slice, and the last word is the whole run.
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBeLessThan(1);
  });

  it('a run with no events is whole with its head', () => {
    const text = serializeRunFile({ ...cancelRaceRun(), events: [] });
    const messages = [...transferMessages(text)];
    expect(messages.map((m) => m.kind)).toEqual(['head']);
    expect(assemble(messages).verdict).toEqual(parseRunFile(text));
  });

  it('a file that is not a run is one message saying what is wrong', () => {
    for (const text of ['not json', JSON.stringify({ ...cancelRaceRun(), version: 99 })]) {
      const messages = [...transferMessages(text)];
      expect(messages).toEqual([{ kind: 'failed', error: expect.any(String) }]);
      expect(assemble(messages).verdict).toEqual(parseRunFile(text));
    }
  });
});
