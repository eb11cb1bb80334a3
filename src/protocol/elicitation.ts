/**
 * Form-mode elicitation (C10): the request a server embeds in
 * `inputRequests`, and the answer a client gives.
 *
 * The answer is the SDK's `ElicitResultSchema`. The request is ours: the
 * SDK's `ElicitRequestFormParamsSchema` accepts every property schema of the
 * spec (multi-select arrays, titled `oneOf` enums, string formats) and
 * strips the members it does not know, while the form this page draws
 * (InputForm) renders only flat string, number, integer and boolean fields,
 * optionally with a plain `enum`. Parsing with ours means a request the form
 * could not draw is reported as such instead of drawn wrong.
 */
import { ElicitResultSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';

const PrimitiveProperty = z.looseObject({
  type: z.enum(['string', 'number', 'integer', 'boolean']),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.string()).optional(),
  default: z.unknown().optional(),
});

export const ElicitationParamsSchema = z.looseObject({
  mode: z.literal('form').optional(),
  message: z.string(),
  requestedSchema: z.looseObject({
    type: z.literal('object'),
    properties: z.record(z.string(), PrimitiveProperty),
    required: z.array(z.string()).optional(),
  }),
});
export type ElicitationParams = z.infer<typeof ElicitationParamsSchema>;

/** The client's answer to one elicitation: accept with content, decline, or cancel. */
export { ElicitResultSchema };
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
