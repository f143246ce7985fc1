import { Client, Pool } from 'pg';
import { servePGlite, tooManyClientsMessage, type PGliteSocket } from '../src/driver/pglite-serve';
import type { PGliteLike } from '../src';
import { openEngine } from './helpers/engines';

/**
 * The PGlite server client targets reach (pglite-socket 0.2.17 over PGlite 0.5, as the embedded
 * engine `pglite-0.5` serves it), driven by real `pg` clients over TCP: what a layer's pool sees.
 * The measured behaviour is the adapter README's "The PGlite server".
 */
describe('PGlite server (pglite-socket) under real pg clients', () => {
  let db: PGliteLike;
  let srv: PGliteSocket;
  const clients: Client[] = [];
  const client = async (): Promise<Client> => {
    const c = new Client({ connectionString: srv.url });
    c.on('error', () => undefined); // a connection the test kills reports here; its queries reject anyway
    await c.connect();
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    db = await openEngine('pglite-0.5');
    srv = await servePGlite('@electric-sql/pglite-socket', db, 'test', 40, 2000); // an idle holder is ended after 2 s
    const c = await client();
    await c.query('CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL)');
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.end()));
    await srv?.stop();
    await db?.close();
  });

  test('20 connections, each running a transaction at once: every one commits its own rows (they are served one after another)', async () => {
    const cs = await Promise.all(Array.from({ length: 20 }, () => client()));
    const got = await Promise.all(
      cs.map(async (c, i) => {
        await c.query('BEGIN');
        await c.query('INSERT INTO t VALUES ($1, $2)', [i, `v${i}`]);
        const r = await c.query<{ v: string }>('SELECT v FROM t WHERE id = $1', [i]);
        await c.query('COMMIT');
        return r.rows[0]?.v;
      }),
    );
    expect(got).toEqual(cs.map((_, i) => `v${i}`));
    expect((await cs[0]!.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n).toBe(20);
    // parameterised statements of 20 connections at once (extended protocol): each gets its own answer
    for (let round = 0; round < 5; round++) {
      const rs = await Promise.all(cs.map((c, i) => c.query<{ a: number; b: string }>('SELECT $1::int AS a, $2::text AS b', [i, `b${i}`])));
      expect(rs.map((r) => r.rows[0])).toEqual(cs.map((_, i) => ({ a: i, b: `b${i}` })));
    }
  });

  test('a connection that dies mid-transaction: the others wait while it holds the session, then go on; its writes are rolled back', async () => {
    const [dying, ...others] = [await client(), await client(), await client(), await client()];
    await dying!.query('BEGIN');
    await dying!.query('INSERT INTO t VALUES (1000, $1)', ['dying']);
    const t0 = Date.now();
    const waiting = others.map((c) => c.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 1000').then((r) => ({ n: r.rows[0]!.n, ms: Date.now() - t0 })));
    await new Promise((r) => setTimeout(r, 500));
    (dying as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy(); // the client process "dies": its socket closes
    const answers = await Promise.all(waiting);
    for (const a of answers) {
      expect(a.n).toBe(0); // the dying transaction's insert was rolled back
      expect(a.ms).toBeGreaterThanOrEqual(450); // served only once the holder was gone (PostgreSQL would answer at once)
    }
  });

  test('a connection idle in a transaction while others wait is ended with FATAL 25P03 after the hold limit; its writes are rolled back, the others go on', async () => {
    const [holder, other] = [await client(), await client()];
    const seen: Array<{ code?: string; message: string; detail?: string }> = [];
    holder!.on('error', (e: Error & { code?: string; detail?: string }) => seen.push({ code: e.code, message: e.message, detail: e.detail }));
    await holder!.query('BEGIN');
    await holder!.query('INSERT INTO t VALUES (2000, $1)', ['held']);
    const t0 = Date.now();
    const r = await other!.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 2000'); // waits behind the holder (2 s limit, checked each second)
    expect(r.rows[0]!.n).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    await new Promise((res) => setTimeout(res, 100));
    expect(seen[0]).toMatchObject({ code: '25P03', message: 'terminating connection due to idle-in-transaction timeout' });
    expect(seen[0]!.detail).toMatch(
      /^PGlite serves one session for every connection: this connection held a transaction open without a statement for \d+ s while 1 other connection\(s\) waited behind it$/,
    );
    await expect(holder!.query('SELECT 1')).rejects.toThrow();
  });

  test('the refusal is a protocol ErrorResponse: E, length, S/V FATAL, C 53300, M, terminator', () => {
    const m = tooManyClientsMessage();
    expect(m.toString('latin1', 0, 1)).toBe('E');
    expect(m.readInt32BE(1)).toBe(m.length - 1);
    expect(m.subarray(5).toString('utf8')).toBe('SFATAL\0VFATAL\0C53300\0Msorry, too many clients already\0\0');
  });
});

describe('PGlite server: its connection limit', () => {
  test('connections past the limit are refused as PostgreSQL refuses them: FATAL 53300 "sorry, too many clients already", none hangs', async () => {
    const db = await openEngine('pglite-0.5');
    const srv = await servePGlite('@electric-sql/pglite-socket', db, 'test', 3);
    const pool = new Pool({ connectionString: srv.url, max: 10, connectionTimeoutMillis: 10_000 });
    try {
      // a pool of 10 asked for 10 connections at once against a limit of 3
      const held = await Promise.allSettled(Array.from({ length: 10 }, () => pool.connect()));
      const outcome = held.map((r) => (r.status === 'fulfilled' ? 'ok' : `${(r.reason as { code?: string }).code}: ${(r.reason as Error).message}`));
      expect(outcome.filter((o) => o === 'ok')).toHaveLength(3);
      expect(new Set(outcome.filter((o) => o !== 'ok'))).toEqual(new Set(['53300: sorry, too many clients already']));
      for (const r of held) if (r.status === 'fulfilled') r.value.release();
    } finally {
      await pool.end();
      await srv.stop();
      await db.close();
    }
  });
});
