import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineDriver, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore } from '@memory-matrix/spec';
import { MEM0_CAPABILITIES, Mem0Store } from './mem0-adapter';
import { MEM0_SCORES } from './scores';
import { mem0PackageVersions } from './versions';

/**
 * Engine `mem0-memory`: mem0's OSS `Memory` over its embedded vector store (provider `memory`,
 * better-sqlite3), in this process. `dataDir`: the collections live there and are reopened by the
 * same directory; absent: a temporary directory removed at close. Every `connect()` is a new store
 * (new `Memory` instances per collection) on that directory.
 */
const mem0MemoryEngine: EmbeddedEngine = {
  description: "mem0ai Memory (mem0ai/oss) over its embedded 'memory' vector store (better-sqlite3), in this process",
  preflight: mem0PackageVersions,
  async open({ dataDir }): Promise<EmbeddedInstance> {
    const root = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mm-mem0-'));
    return {
      versions: async () => {
        const v = mem0PackageVersions('mem0 versions');
        return { serverVersion: `mem0ai ${v.mem0ai}`, components: v };
      },
      connect: async (): Promise<MemoryStore> => new Mem0Store(root),
      close: async () => {
        if (dataDir === undefined) rmSync(root, { recursive: true, force: true });
      },
    };
  },
};

/**
 * The mem0 driver: mem0's open-source `Memory` (mem0ai, pinned in package.json) as the memory store:
 * `add` with `infer: false` (no LLM), `search`, `getAll`, `delete`, with an embedder that hands mem0
 * the golden vectors (embedder.ts). Offers `embedded` (engine `mem0-memory`). Takes no `adapterOptions`.
 */
export const mem0Driver = defineDriver({
  name: 'mem0',
  description: 'mem0 OSS Memory (mem0ai) over its embedded vector store',
  capabilities: MEM0_CAPABILITIES,
  scores: MEM0_SCORES,
  /** No index type: mem0's embedded store scans every row. */
  indexes: {},
  embedded: { engines: { 'mem0-memory': mem0MemoryEngine } },
});
