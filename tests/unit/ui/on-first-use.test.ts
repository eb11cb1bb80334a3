import { describe, expect, it } from 'vitest';
import {
  NOT_FETCHED_REASON,
  onFirstUse,
  rawReasonOf,
  reasonOf,
} from '../../../src/ui/state/on-first-use.ts';

describe('onFirstUse: a module fetched when first asked for', () => {
  it('loads nothing until asked, then once for every caller', async () => {
    let loads = 0;
    const get = onFirstUse(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([get(), get()]);
    expect(await get()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('a failed load is passed on, then forgotten: the next call tries again', async () => {
    const outcomes = [new Error('Failed to fetch dynamically imported module: /x.js'), 'loaded'];
    let loads = 0;
    const get = onFirstUse(async () => {
      const outcome = outcomes[loads++];
      if (outcome instanceof Error) throw outcome;
      return outcome;
    });
    await expect(get()).rejects.toThrow('Failed to fetch');
    expect(await get()).toBe('loaded');
    expect(await get()).toBe('loaded');
    expect(loads).toBe(2);
  });

  it("says a chunk that got no answer in plain words, whichever browser's words, not the asset's URL", () => {
    const notFetched = [
      'Failed to fetch dynamically imported module: http://127.0.0.1:4173/assets/TaskCard-abc.js',
      'error loading dynamically imported module: http://127.0.0.1:4173/assets/TaskCard-abc.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/TaskCard-abc.css',
      'Failed to fetch',
      'NetworkError when attempting to fetch resource.',
      'Load failed',
    ];
    for (const message of notFetched) {
      expect(reasonOf(new TypeError(message))).toBe(NOT_FETCHED_REASON);
      // The browser's own words stay for an engineer.
      expect(rawReasonOf(new TypeError(message))).toBe(message);
    }
    expect(NOT_FETCHED_REASON).toBe('the network or the server did not answer');
  });

  it('says any other failure in its own words, for an Error and for anything else thrown', () => {
    expect(reasonOf(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(
      "Cannot read properties of undefined (reading 'x')",
    );
    expect(reasonOf('Write permission denied.')).toBe('Write permission denied.');
    expect(rawReasonOf('offline')).toBe('offline');
  });
});
