/** The page's views in the address: `?view=...`, the playground by default. */
import { describe, expect, it } from 'vitest';
import { ruleFromSearch, ruleHref, viewFromSearch, viewHref } from '../../../src/ui/state/views.ts';

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

  it('a rule id links to the digest view at that rule, and leaving the view drops the rule', () => {
    expect(ruleHref('T12', '?scenario=happy-path&debug=1')).toBe('?debug=1&view=spec&rule=T12');
    expect(ruleFromSearch('?view=spec&rule=T12')).toBe('T12');
    expect(ruleFromSearch('?view=myths&rule=T12')).toBeUndefined();
    expect(viewFromSearch('?view=spec&rule=T12')).toBe('spec');
    expect(viewHref('myths', '?view=spec&rule=T12')).toBe('?view=myths');
  });
});
