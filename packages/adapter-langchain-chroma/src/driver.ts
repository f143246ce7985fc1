import path from 'node:path';
import { z } from 'zod';
import { defineDriver, HNSW_ONLY_INDEXES, pinnedPackageVersions } from '@memory-matrix/spec';
import { CHROMADB_MAJORS } from './clients';
import { connectLangchainChroma, LANGCHAIN_CHROMA_CAPABILITIES } from './langchain-chroma-adapter';
import { LANGCHAIN_CHROMA_SCORES } from './scores';

/**
 * The driver's `adapterOptions` (catalog, per target): `chromadb`, the major of the chromadb
 * JavaScript client LangChain's `Chroma` runs on (clients.ts): `"3"` (3.5.0, default) or `"1"`
 * (1.10.5). Strict: any other key is a catalog error naming the file, line and key.
 */
export const langchainChromaOptionsSchema = z.object({ chromadb: z.enum(['3', '1']).default('3') }).strict();

/** Parsed `adapterOptions` of a langchain-chroma target. */
export type LangchainChromaAdapterOptions = z.infer<typeof langchainChromaOptionsSchema>;

/** This package's directory (its package.json pins the client packages). */
const PACKAGE_DIR = path.resolve(__dirname, '..');

/**
 * The langchain-chroma driver: LangChain.js `Chroma` (@langchain/community) over a Chroma server
 * target (`client` facet; catalog `server: chroma@…`). Stores are `connectLangchainChroma` at the
 * server's URL with the chromadb major of `adapterOptions.chromadb`; the fault controls of the
 * chroma server drop its connections by `clientName` (the transport is registered with
 * adapter-chroma's `chromaClientTransport`). Preflight: @langchain/community, @langchain/core and
 * that chromadb installed as pinned in this package's package.json → components
 * `@langchain/community`, `@langchain/core`, `chromadb`.
 */
export const langchainChromaDriver = defineDriver<LangchainChromaAdapterOptions>({
  name: 'langchain-chroma',
  description: 'LangChain.js Chroma (@langchain/community) over a Chroma server',
  capabilities: LANGCHAIN_CHROMA_CAPABILITIES,
  scores: LANGCHAIN_CHROMA_SCORES,
  /** Index types: Chroma's HNSW (m, efConstruction, efSearch; spec hnswIndexSchema). */
  indexes: HNSW_ONLY_INDEXES,
  adapterOptions: langchainChromaOptionsSchema,
  client: {
    servers: ['chroma'],
    description: 'LangChain.js Chroma (@langchain/community) on a chromadb client',
    preflight: (where, o) =>
      pinnedPackageVersions(PACKAGE_DIR, { '@langchain/community': '@langchain/community', '@langchain/core': '@langchain/core', chromadb: CHROMADB_MAJORS[o?.chromadb ?? '3'] }, where),
    connect: (server, opts, o) => connectLangchainChroma({ url: server.url, chromadb: o?.chromadb, connect: opts }),
  },
});
