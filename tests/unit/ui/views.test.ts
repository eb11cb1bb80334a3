/** The page's views in the address: `?view=...`, the playground by default. */
import { describe, expect, it } from 'vitest';
import { viewFromSearch, viewHref } from '../../../src/ui/state/views.ts';

describe('views', () => {
  it('reads the view from the address; anything unknown is the playground', () => {
    expect(viewFromSearch('?view=interview')).toBe('interview');
    expect(viewFromSearch('?view=myths&q=x')).toBe('myths');
    expect(viewFromSearch('?view=nope')).toBe('playground');
    expect(viewFromSearch('')).toBe('playground');
  });

  it('links keep other parameters but drop the scenario and the question', () => {
    expect(viewHref('changed', '?scenario=happy-path&q=statuses&debug=1')).toBe(
      '?debug=1&view=changed',
    );
    expect(viewHref('playground', '?view=myths')).toBe('./');
  });
});
