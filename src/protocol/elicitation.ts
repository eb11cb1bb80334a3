/**
 * Form-mode elicitation (C10): the request a server embeds in
 * `inputRequests`, and the answer a client gives.
 */
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

export const ElicitResultSchema = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
