import { randomBytes } from 'node:crypto';
import type { Failure } from '../comparator';
import type { ChatHistory, HistoryKey } from '../history';
import { describeLimit, hostCalibration } from '../host';
import { type CheckDefinition, failure, needs } from './check';
import { checkMessages, checkPrefix, openCheckHistory } from './helpers/history';

/**
 * TTL of the sliding / fixed sessions, ms, and the pause between their two writes, at host factor 1;
 * each × the host factor when the check starts (the TTL rounded up to whole seconds, which a target
 * without `ttlMillis` can set), so a slow host stretches the session instead of expiring it mid-check.
 */
const TTL_MS = 3_000;
const PAUSE_MS = 1_000;
/** Margin on every TTL comparison at host factor 1 (≥ 100 ms, so timer resolution cannot flake it; a refreshed TTL is ~3000, a fixed one ~2000); × the factor. */
const MARGIN_MS = 500;
/**
 * TTL of the expiry session, ms: 300 where the target takes millisecond TTLs (`ttlMillis`), else
 * 1 s (the shortest whole-second TTL, e.g. a client that sets TTLs with Redis `EXPIRE`); and how
 * long to wait for it at most after the write was acknowledged (× the host factor: spec host.ts).
 */
const SHORT_TTL_MS = 300;
const SHORT_TTL_SECONDS_MS = 1_000;
const EXPIRY_WAIT_MS = 3_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * C18 ttl: every key a session owns carries the TTL — as the backend's own key listing
 * (`ChatHistory.keys()`) shows it, never from memory — after plain appends, after a window trim and
 * after raw writes; with `refreshTtlOnWrite` (sliding) a write resets every key's TTL, without it a
 * later write leaves the remaining TTL alone (TTL 3 s, writes 1 s apart, margins 500 ms, each × the
 * host factor); a
 * session with a 300 ms TTL reads back before expiry and reads empty, with no key left, after it
 * (polled, never one long sleep; up to 3 s × the host factor after the write's acknowledgement).
 * Every lower TTL bound follows the measured time since the write began, so a slow host cannot
 * flake it; an upper bound (the TTL itself) is never stretched. Parts that need what a target may lack are not run there and
 * the figures say so: the trim part (`historyWindow`), the fixed session (`ttlFixed`); a target
 * without `ttlMillis` gets a 1 s expiry session instead of 300 ms.
 */
export const c18Ttl: CheckDefinition = {
  id: 'C18',
  name: 'ttl',
  requires: needs('history', 'ttl'),
  timeoutMs: 60_000,
  async run(cell) {
    const failures: Failure[] = [];
    const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'ttl', message, extra));
    const prefix = checkPrefix(cell, 'c18');
    const base = `s-${randomBytes(4).toString('hex')}`;
    const msgs = checkMessages(cell, 12);
    const factor = hostCalibration().factor;
    const ttlMs = 1000 * Math.ceil((TTL_MS * factor) / 1000);
    const marginMs = Math.round(MARGIN_MS * factor);
    const opened: ChatHistory[] = [];
    const open = async (suffix: string, o: { ttlMs: number; refreshTtlOnWrite?: boolean; maxMessages?: number }) => {
      const h = await openCheckHistory(cell, {
        sessionId: `${base}-${suffix}`,
        keyPrefix: prefix,
        ttlMs: o.ttlMs,
        refreshTtlOnWrite: o.refreshTtlOnWrite,
        window: o.maxMessages ? { maxMessages: o.maxMessages } : undefined,
      });
      opened.push(h);
      return h;
    };
    /** Every key has a TTL within (lo, hi]; reports keys without one. */
    const expectTtls = (what: string, keys: HistoryKey[], lo: number, hi: number) => {
      if (keys.length === 0) fail(`${what}: the session lists no key`);
      for (const k of keys) {
        if (k.ttlMs === null) fail(`${what}: key ${k.key} has no TTL`, { id: k.key, expected: `TTL in (${lo}, ${hi}] ms`, actual: 'none' });
        else if (!(k.ttlMs > lo && k.ttlMs <= hi)) fail(`${what}: key ${k.key} has TTL ${k.ttlMs} ms, expected (${lo}, ${hi}] ms`, { id: k.key, expected: `(${lo}, ${hi}]`, actual: k.ttlMs });
      }
    };
    try {
      // A 60 s TTL set by a write that began `since` ms ago has at least 60 000 − since − the margin left.
      const long = await open('long', { ttlMs: 60_000 });
      const l0 = Date.now();
      await long.append(msgs.slice(0, 4));
      await long.append(msgs.slice(4, 6));
      const longKeys = await long.keys();
      expectTtls('after appends (TTL 60 s)', longKeys, 60_000 - (Date.now() - l0) - marginMs, 60_000);

      const caps = cell.config.capabilities;
      const notRun: string[] = [];
      if (caps.historyWindow) {
        const windowed = await open('window', { ttlMs: 60_000, maxMessages: 2 });
        const w0 = Date.now();
        await windowed.append(msgs.slice(0, 5));
        await windowed.trim({ maxMessages: 1 });
        expectTtls('after a window trim (TTL 60 s)', await windowed.keys(), 60_000 - (Date.now() - w0) - marginMs, 60_000);
      } else notRun.push('TTL after a window trim (capability: historyWindow)');

      const raw = await open('raw', { ttlMs: 60_000 });
      const r0 = Date.now();
      await raw.writeRaw(['{"v":2,"role":"user","content":"raw","createdAt":"2024-01-01T00:00:00.000Z","metadata":{}}']);
      expectTtls('after writeRaw (TTL 60 s)', await raw.keys(), 60_000 - (Date.now() - r0) - marginMs, 60_000);

      const sliding = await open('sliding', { ttlMs, refreshTtlOnWrite: true });
      const fixed = caps.ttlFixed ? await open('fixed', { ttlMs, refreshTtlOnWrite: false }) : null;
      if (!fixed) notRun.push('fixed (refreshTtlOnWrite: false) session (capability: ttlFixed)');
      await Promise.all([sliding.append(msgs.slice(0, 1)), fixed?.append(msgs.slice(0, 1))]);
      const t0 = Date.now();
      await sleep(Math.round(PAUSE_MS * factor));
      const t1 = Date.now();
      await Promise.all([sliding.append(msgs.slice(1, 2)), fixed?.append(msgs.slice(1, 2))]);
      const elapsed = Date.now() - t0;
      const [slidingKeys, fixedKeys] = await Promise.all([sliding.keys(), fixed ? fixed.keys() : null]);
      // The bounds follow the measured times, so a slow machine cannot flake them: a sliding key's
      // TTL was reset during the second write, so at least TTL − (the time since that write began)
      // is left; a fixed key's was set by the first write (acknowledged at t0), so at most
      // TTL − elapsed is left. Once elapsed comes within the margin of the TTL, the fixed key may
      // have expired and been created again by the second write, which a refreshed key cannot be
      // told from: that part is then not judged (the figures say so). Likewise a sliding key listed
      // within the margin of the TTL after the second write began may have expired by then.
      const sinceSecond = Date.now() - t1;
      if (sinceSecond + marginMs < ttlMs) expectTtls(`sliding session, second write ${elapsed} ms after the first`, slidingKeys, ttlMs - sinceSecond - marginMs, ttlMs);
      else
        notRun.push(
          `sliding session: its keys were listed ${sinceSecond} ms after the second write began, within ${marginMs} ms of the ${ttlMs} ms TTL (a slow machine), so an expired key cannot be told from a lost one`,
        );
      if (fixedKeys && elapsed + marginMs < ttlMs) expectTtls(`fixed session, second write ${elapsed} ms after the first`, fixedKeys, 0, ttlMs - elapsed + marginMs);
      else if (fixedKeys)
        notRun.push(`fixed session: the second write came ${elapsed} ms after the first, within ${marginMs} ms of the ${ttlMs} ms TTL (a slow machine), so its TTL cannot be told from a new key's`);

      const shortTtl = caps.ttlMillis ? SHORT_TTL_MS : SHORT_TTL_SECONDS_MS;
      const short = await open('expiry', { ttlMs: shortTtl });
      const w0 = Date.now();
      await short.append(msgs.slice(0, 3));
      const ackAt = Date.now();
      const early = await short.read();
      const earlyAt = Date.now() - w0;
      if (earlyAt < shortTtl - 100 && early.length !== 3)
        fail(`${shortTtl} ms TTL: ${early.length} messages read ${earlyAt} ms after the write, expected 3 (expired early?)`, { expected: 3, actual: early.length });
      // Polled from the write's acknowledgement: on a slow host the write itself may outlast a fixed wait.
      const waitMs = Math.round(EXPIRY_WAIT_MS * factor);
      let expiredAt: number | null = null;
      while (Date.now() - ackAt < waitMs) {
        await sleep(50);
        if ((await short.read()).length === 0) {
          expiredAt = Date.now() - w0;
          break;
        }
      }
      if (expiredAt === null)
        fail(`${shortTtl} ms TTL: messages still readable ${Date.now() - ackAt} ms after the write was acknowledged (waited ${describeLimit(EXPIRY_WAIT_MS, factor)})`, { expected: 0 });
      else if (expiredAt < shortTtl - 50) fail(`${shortTtl} ms TTL: read empty already ${expiredAt} ms after the write`, { expected: `≥ ${shortTtl}`, actual: expiredAt });
      const leftover = await short.keys();
      if (leftover.length)
        fail(`${shortTtl} ms TTL: after expiry the session still lists ${leftover.map((k) => `${k.key} (TTL ${k.ttlMs ?? 'none'})`).join(', ')}`, { expected: 0, actual: leftover.length });
      return {
        figures: {
          keysPerSession: longKeys.length,
          sessionTtlMs: ttlMs,
          hostFactor: factor,
          slidingTtlAfterRewriteMs: Math.min(...slidingKeys.map((k) => k.ttlMs ?? -1)),
          fixedTtlAfterRewriteMs: fixedKeys ? Math.max(...fixedKeys.map((k) => k.ttlMs ?? -1)) : null,
          expiryTtlMs: shortTtl,
          observedEmptyAfterMs: expiredAt,
          notRun: notRun.length ? notRun.join('; ') : null,
        },
        failures,
        ...(notRun.length ? { notes: notRun.map((p) => `not run: ${p}`) } : {}),
      };
    } finally {
      await Promise.allSettled(opened.map((h) => h.clear()));
    }
  },
};
