/** The page's views and how the address names them (`?view=...`); pure, so it is tested in Node. */

export const VIEWS = [
  { id: 'playground', label: 'Playground' },
  { id: 'interview', label: 'Interview' },
  { id: 'myths', label: 'Myths' },
  { id: 'changed', label: 'What changed' },
  { id: 'spec', label: 'Rules' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

/** The view an address asks for; anything unknown is the playground. */
export function viewFromSearch(search: string): ViewId {
  const asked = new URLSearchParams(search).get('view');
  return VIEWS.find((v) => v.id === asked)?.id ?? 'playground';
}

/** The address of `view`, keeping the page's other parameters (but never a scenario: it would re-run). */
export function viewHref(view: ViewId, search = ''): string {
  const params = new URLSearchParams(search);
  params.delete('scenario');
  params.delete('q');
  params.delete('rule');
  if (view === 'playground') params.delete('view');
  else params.set('view', view);
  const query = params.toString();
  return query === '' ? './' : `?${query}`;
}

/** The rule an address points at in the digest view (`?view=spec&rule=T12`), if any. */
export function ruleFromSearch(search: string): string | undefined {
  const params = new URLSearchParams(search);
  return params.get('view') === 'spec' ? (params.get('rule') ?? undefined) : undefined;
}

/** The address of the digest view at rule `id`, keeping the page's other parameters as {@link viewHref} does. */
export function ruleHref(id: string, search = ''): string {
  const href = viewHref('spec', search);
  const params = new URLSearchParams(href.startsWith('?') ? href : '');
  params.set('rule', id);
  return `?${params.toString()}`;
}
