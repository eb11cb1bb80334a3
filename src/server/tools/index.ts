/** Every tool the playground serves: the conformance fixtures first, then the learner's tools. */
import type { ToolDefinition } from '../tool.ts';
import { confirmDelete } from './confirm-delete.ts';
import { deployService } from './deploy-service.ts';
import { exportReport } from './export-report.ts';
import { failingJob } from './failing-job.ts';
import { flashSaleQuote } from './flash-sale.ts';
import { greet } from './greet.ts';
import { multiInput } from './multi-input.ts';
import { protocolErrorJob } from './protocol-error-job.ts';
import { slowCompute } from './slow-compute.ts';
import { stubbornMigration } from './stubborn-migration.ts';
import { testToolWithTask } from './test-tool-with-task.ts';

export const ALL_TOOLS: readonly ToolDefinition[] = [
  greet,
  slowCompute,
  failingJob,
  protocolErrorJob,
  confirmDelete,
  multiInput,
  testToolWithTask,
  exportReport,
  deployService,
  stubbornMigration,
  flashSaleQuote,
];
