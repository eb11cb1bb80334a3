/**
 * The run file: what happened on the page as one versioned JSON document
 * (`docs/run-file.md`, JSON Schema `docs/run-file.schema.json`). The
 * recorder builds one, "Save run" writes it, the replay reads it back with
 * {@link parseRunFile}, which never trusts the text: every field is checked
 * against the schema, and what is wrong is named with its path.
 */
import { z } from 'zod';
import { RunEventSchema } from './run-events.ts';
import { RunSetupSchema } from './run-setup.ts';
import { RUN_FORMAT, RUN_VERSION } from './run-format.ts';

// Here too, so a reader of the file format finds them beside the schema.
export { RUN_FORMAT, RUN_VERSION };

export const RunFileSchema = z.object({
  format: z.literal(RUN_FORMAT),
  /** A newer version is refused: it was made by a newer app. */
  version: z.literal(RUN_VERSION),
  /** The app that recorded it (package.json `version`). */
  app: z.object({ version: z.string().min(1) }),
  /** ISO time of the first event; every event's `at` counts ms from it. */
  recordedAt: z.iso.datetime(),
  /** The setup when recording began; later changes are events (`rules`, `fault-log`, `declare-tasks`, `server-store`). */
  setup: RunSetupSchema,
  /** The scenario open on the page when the run was saved, if one was (the replay names it). */
  scenario: z.object({ id: z.string().min(1), title: z.string().min(1) }).optional(),
  /** Ordered by `at`. */
  events: z.array(RunEventSchema),
});

export type RunFile = z.infer<typeof RunFileSchema>;

/** The scenario a run was recorded from. */
export type RunScenario = NonNullable<RunFile['scenario']>;

export type RunFileVerdict = { ok: true; run: RunFile } | { ok: false; error: string };

/** `events[12].entry.seq` from a zod issue path. */
function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text === '' ? 'the top level' : text;
}

function orderError(events: RunFile['events']): string | undefined {
  for (let i = 1; i < events.length; i++) {
    if (events[i]!.at < events[i - 1]!.at)
      return `events[${i}].at: ${events[i]!.at} comes before the event above it (${events[i - 1]!.at}); events must be ordered by time`;
  }
  return undefined;
}

/** Checks an already parsed JSON value as a run file. */
export function checkRunFile(value: unknown): RunFileVerdict {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'not a run file: the JSON is not an object' };
  const { format, version } = value as Record<string, unknown>;
  if (format !== RUN_FORMAT)
    return {
      ok: false,
      error: `not a run file: format is ${JSON.stringify(format) ?? 'missing'}, expected "${RUN_FORMAT}"`,
    };
  if (typeof version === 'number' && version > RUN_VERSION)
    return {
      ok: false,
      error: `made by a newer app: run file version ${version}, this page reads version ${RUN_VERSION}`,
    };
  const parsed = RunFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const more = parsed.error.issues.length - 1;
    return {
      ok: false,
      error: `${pathText(issue.path)}: ${issue.message}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`,
    };
  }
  const order = orderError(parsed.data.events);
  return order ? { ok: false, error: order } : { ok: true, run: parsed.data };
}

/**
 * Why text is not JSON, when it can be told: empty, or cut short (the parser ran out of text
 * before the document closed: a download or copy that stopped part-way).
 */
function notJsonWhy(text: string, reason: string): string {
  if (text.trim() === '') return ': the file is empty';
  const position = /at position (\d+)/.exec(reason)?.[1];
  const ranOut =
    /unexpected end/i.test(reason) ||
    (position !== undefined && Number(position) >= text.trimEnd().length);
  return ranOut
    ? `: it stops part-way, after ${text.length.toLocaleString('en')} characters (cut short?)`
    : '';
}

/** Reads a run file's text: the run, or what is wrong with it (not JSON, wrong format, newer version, which field at which path). */
export function parseRunFile(text: string): RunFileVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `not JSON (${reason})${notJsonWhy(text, reason)}` };
  }
  return checkRunFile(value);
}

/** The run as the text of a run file (one line per event, so a diff of two runs reads well). */
export function serializeRunFile(run: RunFile): string {
  const { events, ...head } = run;
  const top = JSON.stringify(head);
  if (events.length === 0) return `${top.slice(0, -1)},"events":[]}\n`;
  return `${top.slice(0, -1)},"events":[\n${events.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}
