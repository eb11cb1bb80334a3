/** The page's views and how the address names them (`?view=...`); pure, so it is tested in Node. */

export const VIEWS = [
  { id: 'playground', label: 'Playground' },
  { id: 'interview', label: 'Interview' },
  { id: 'myths', label: 'Myths' },
  { id: 'changed', label: 'What changed' },
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
  if (view === 'playground') params.delete('view');
  else params.set('view', view);
  const query = params.toString();
  return query === '' ? './' : `?${query}`;
}
