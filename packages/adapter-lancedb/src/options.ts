import { z } from 'zod';

/**
 * The lancedb driver's `adapterOptions` (catalog, per target): `hnswPartitions`, the IVF
 * partition count of the IVF_HNSW_SQ index an `hnsw` collection gets (LanceDB: "Setting this to 1
 * works well for most tables"; each partition is its own HNSW graph). Default 1. Strict: any other
 * key is a catalog error naming the file, line and key.
 */
export const lancedbAdapterOptionsSchema = z
  .object({
    hnswPartitions: z.number().int().min(1).default(1),
  })
  .strict();

/** Parsed `adapterOptions` of a lancedb target. */
export type LancedbAdapterOptions = z.infer<typeof lancedbAdapterOptionsSchema>;
