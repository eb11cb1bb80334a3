import { describe, expect, it } from 'vitest';
import { onFirstUse, reasonOf } from '../../../src/ui/state/on-first-use.ts';

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

  it('says why in words, for an Error and for anything else thrown', () => {
    expect(reasonOf(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(reasonOf('offline')).toBe('offline');
  });
});
