/**
 * The run file's format id and version: what the recorder stamps on a run and
 * what the reader checks first. Apart from the schema (`run-file.ts`) so the
 * recorder, which listens from the page's load, does not bring the schema of
 * every event into the first screen's bundle.
 */
export const RUN_FORMAT = 'mcp-tasks-playground/run';
export const RUN_VERSION = 1;
