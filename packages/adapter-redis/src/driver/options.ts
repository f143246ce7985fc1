import { z } from 'zod';

/**
 * The redis driver's `adapterOptions` (catalog, per target): `quantization` of the Vector Sets
 * it creates, `q8` (int8, Redis' default; scores within ~3e-3) or `noquant` (float32). Default
 * q8. Strict: any other key is a catalog error naming the file, line and key.
 */
export const redisAdapterOptionsSchema = z
  .object({
    quantization: z.enum(['q8', 'noquant']).default('q8'),
  })
  .strict();

/** Parsed `adapterOptions` of a redis target. */
export type RedisAdapterOptions = z.infer<typeof redisAdapterOptionsSchema>;
