/**
 * The memory-matrix driver of this module: it only translates between the module (./memory) and
 * the matrix contract (@memory-matrix/spec) — records ↔ memories, filters ↔ scopes, the module's
 * errors ↔ coded errors. What the module cannot do (ANN index, time decay, metrics other than
 * cosine) is a capability it does not declare, so those checks skip.
 * It runs as a client over a server target: pgvector (memories) or redis (chat history).
 */
import Redis from 'ioredis';
import { Pool } from 'pg';
import * as mm from '@memory-matrix/spec';
import { ChatHistory, MemoryManager, PayloadError, type Memory } from './memory';

const RULES = { adapter: 'own-memory' };
const MEMORY = mm.capabilities({
  vectors: true,
  metrics: ['cosine'],
  exactScan: true,
  filterNamespace: true,
  filterKind: true,
  filterMetadata: true,
  threshold: true,
  upsert: true,
  delete: true,
  reopen: true,
  readYourWrites: 'strong',
});
const HISTORY = mm.capabilities({ history: true, ttl: true });

/** Run a module call; its errors become the contract's codes (never swallowed). */
async function coded<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (mm.isMemoryMatrixError(err)) throw err;
    const pgCode = (err as { code?: string }).code; // PostgreSQL SQLSTATE: 42P01 undefined_table, 42P07 duplicate_table
    const code =
      err instanceof PayloadError
        ? 'PAYLOAD_UNSUPPORTED'
        : pgCode === '42P01'
          ? 'COLLECTION_MISSING'
          : pgCode === '42P07'
            ? 'COLLECTION_EXISTS'
            : err instanceof RangeError
              ? 'INVALID_INPUT'
              : 'BACKEND_ERROR';
    throw new mm.MemoryMatrixError(code, `own-memory: ${what}: ${(err as Error).message}`, { cause: err });
  }
}

const toMemory = (r: mm.MemoryRecord): Memory => ({
  id: r.id,
  userId: r.namespace,
  category: r.kind,
  content: r.text,
  attrs: mm.flatMetadata(r.metadata, `own-memory: memory ${r.id}`), // the module stores flat attributes only
  createdAt: new Date(r.createdAt),
  embedding: Array.from(r.embedding),
});
const toRecord = (m: Memory): mm.MemoryRecord => ({
  id: m.id,
  namespace: m.userId,
  kind: m.category as mm.MemoryKind,
  text: m.content,
  createdAt: m.createdAt.toISOString(),
  metadata: m.attrs,
  embedding: Float32Array.from(m.embedding),
});
function scope(f: mm.RecallFilter | undefined, where: string) {
  mm.validateRecallFilter(f, where, RULES);
  return { userIds: f?.namespaces, categories: f?.kinds, attrs: f?.metadata };
}

function collection(m: MemoryManager, spec: mm.CollectionSpec): mm.MemoryCollection {
  const at = (op: string) => `${op} ${m.table}`;
  return {
    spec,
    upsert: (rs) => coded(at('upsert'), () => (rs.forEach((r, i) => mm.validateMemoryRecord(r, i, spec.dim, spec.metric, spec.name, RULES)), m.remember(rs.map(toMemory)))),
    get: (ids) => coded(at('get'), async () => (mm.validateIdList(ids, at('get'), RULES), mm.inAskedOrder(ids, new Map((await m.getMany(ids)).map((x) => [x.id, toRecord(x)]))))),
    delete: (ids) => coded(at('delete'), () => (mm.validateIdList(ids, at('delete'), RULES), m.forget([...new Set(ids)]))),
    count: (f) => coded(at('count'), () => m.count(scope(f, at('count')))),
    buildIndex: async () => undefined, // no index: every recall is an exact scan
    recall: (q) =>
      coded(at('recall'), async () => {
        mm.validateRecallQuery(q, spec.dim, spec.metric, spec.name, RULES);
        return (await m.recall(Array.from(q.vector), { ...scope(q.filter, at('recall')), limit: q.k, minSimilarity: q.minScore })).map((h) => ({ id: h.id, score: h.similarity }));
      }),
  };
}

function memoryStore(pool: Pool): mm.MemoryStore {
  let closed: Promise<void> | undefined;
  return {
    adapter: 'own-memory',
    capabilities: MEMORY,
    serverInfo: () => coded('serverInfo', async () => ({ server: (await pool.query('SELECT version() AS v')).rows[0].v, components: {} })),
    createCollection: (s) =>
      coded(`create ${s.name}`, async () => {
        if (s.metric !== 'cosine') throw new mm.MemoryMatrixError('INVALID_INPUT', `own-memory: create ${s.name}: the module stores cosine memories only, not ${s.metric}`);
        return collection(await MemoryManager.create(pool, s.name, s.dim), { ...s, index: { type: 'none' } });
      }),
    openCollection: (name) =>
      coded(`open ${name}`, async () => {
        const m = await MemoryManager.open(pool, name);
        return collection(m, { name, dim: m.dim, metric: 'cosine', index: { type: 'none' } });
      }),
    dropCollection: (name) => coded(`drop ${name}`, () => MemoryManager.drop(pool, name)),
    close: () => (closed ??= pool.end()),
  };
}

function historyStore(redis: Redis): mm.MemoryStore {
  const none = async (): Promise<never> => {
    throw new mm.MemoryMatrixError('CAPABILITY_MISSING', 'own-memory: memories live in PostgreSQL, not in Redis');
  };
  let closed: Promise<unknown> | undefined;
  return {
    adapter: 'own-memory',
    capabilities: HISTORY,
    serverInfo: () => coded('serverInfo', async () => ({ server: `Redis ${/redis_version:(\S+)/.exec(await redis.info('server'))?.[1]}`, components: {} })),
    createCollection: none,
    openCollection: none,
    dropCollection: async () => undefined,
    close: async () => void (closed ??= redis.quit().catch(() => redis.disconnect())),
    async openHistory(o) {
      const w = o.window ?? {};
      const h = new ChatHistory(redis, o.sessionId, { prefix: o.keyPrefix, ttlMs: o.ttlMs, slidingTtl: o.refreshTtlOnWrite, maxMessages: w.maxMessages, maxChars: w.maxChars });
      const at = (op: string) => `${op} ${h.key}`;
      return {
        sessionId: o.sessionId,
        keyPrefix: o.keyPrefix ?? 'chat:',
        append: (msgs) => coded(at('append'), () => h.add(msgs.map((m, i) => ({ ...m, metadata: mm.flatMetadata(m.metadata, `own-memory: ${at('append')}: messages[${i}]`) })))),
        read: (r) => coded(at('read'), () => h.messages(r?.last)),
        length: () => coded(at('length'), () => h.size()),
        trim: (win) => coded(at('trim'), () => h.trim(win)),
        clear: () => coded(at('clear'), () => h.clear()),
        keys: () => coded(at('keys'), async () => [await h.inspect()].filter((k) => k !== null)),
        writeRaw: (p) => coded(at('writeRaw'), () => h.importRaw(p)),
        readRaw: () => coded(at('readRaw'), () => h.exportRaw()),
      };
    },
  };
}

export const driver = mm.defineDriver({
  name: 'own-memory',
  description: "This application's agent memory (./memory: pg + pgvector memories, ioredis chat history)",
  capabilities: { ...MEMORY, history: true, ttl: true }, // per target, the catalog turns off what its server does not hold
  scores: { formula: 'cosine similarity as the module returns it: 1 − (embedding <=> query) (pgvector cosine distance)', toCanonical: (_metric, s) => s },
  client: {
    servers: ['pgvector', 'redis'],
    description: 'own-memory module 0.1.0 (pg, ioredis)',
    preflight: () => ({ 'own-memory': '0.1.0' }),
    async connect(server, opts) {
      const t = opts?.timeouts ?? {};
      if (server.backend === 'redis') {
        const redis = new Redis(server.url, { connectionName: opts?.clientName, connectTimeout: t.connectMs, commandTimeout: t.queryMs });
        redis.on('error', () => undefined); // connection errors while it reconnects (server killed, C15): each command's promise still rejects or waits; without a listener ioredis prints every one
        return historyStore(redis);
      }
      const pool = new Pool({ connectionString: server.url, application_name: opts?.clientName, connectionTimeoutMillis: t.connectMs, query_timeout: t.queryMs, max: 4 });
      pool.on('error', () => undefined); // an idle connection died (server restarted): pg drops it, the next query sees the failure
      return memoryStore(pool);
    },
  },
});
