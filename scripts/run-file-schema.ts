/**
 * Writes the run file's JSON Schema (`docs/run-file.schema.json`) from the
 * zod schema in src/record/run-file.ts. Run after changing that schema:
 * `npm run run-file-schema`; a unit test fails while the two differ.
 */
import { writeFileSync } from 'node:fs';
import { RUN_FILE_SCHEMA_PATH, runFileJsonSchema } from '../src/record/run-file-schema.ts';

writeFileSync(
  new URL(`../${RUN_FILE_SCHEMA_PATH}`, import.meta.url),
  `${JSON.stringify(runFileJsonSchema(), null, 2)}\n`,
);
console.log(`wrote ${RUN_FILE_SCHEMA_PATH}`);
