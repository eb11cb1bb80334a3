/**
 * `?run=<url>`: the address naming a run to replay, kept there while the
 * replay is open so a reload opens it again. Read at load without the
 * replay's code (which loads only when a run is named or opened).
 */

/** The address parameter naming a run to replay. */
export const RUN_PARAM = 'run';

/** The run `href` names, if it names one. */
export function runNamedIn(href: string): string | undefined {
  return new URL(href).searchParams.get(RUN_PARAM) ?? undefined;
}
