/**
 * The run file's JSON Schema, generated from the zod schema so the two
 * cannot drift: `npm run run-file-schema` writes it to
 * `docs/run-file.schema.json`, and a unit test checks the committed file
 * equals what this generates.
 */
import { z } from 'zod';
import { RunFileSchema } from './run-file.ts';

/** Where the schema is published (its `$id`), relative to the repository. */
export const RUN_FILE_SCHEMA_PATH = 'docs/run-file.schema.json';

export function runFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(RunFileSchema, { target: 'draft-2020-12', io: 'input' });
  return {
    ...schema,
    title: 'MCP Tasks Playground run file',
    description:
      'What happened on the playground page: setup, and every event the views use, ordered by time. See docs/run-file.md.',
  };
}
