import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LEGACY_HISTORY_FILE as SHIPPED_LEGACY_HISTORY_FILE } from '@memory-matrix/golden-data';
import type { Failure } from '../comparator';
import { MemoryMatrixError } from '../errors';
import type { ChatHistory, ChatMessage } from '../history';
import { type CheckDefinition, failure, needs } from './check';
import { checkMessages, checkPrefix, compareMessages, openCheckHistory } from './helpers/history';

/** The committed legacy payloads: `legacy/history-payloads.json` of `@memory-matrix/golden-data` (the repository's golden-data/ folder). */
export const LEGACY_HISTORY_FILE: string = SHIPPED_LEGACY_HISTORY_FILE;

/**
 * The legacy file of a payload format (`ChatHistory.payloadFormat`): `history-payloads.json` for
 * memory-matrix's own (absent), `history-payloads.<format>.json` next to it otherwise. INVALID_INPUT
 * for a format name that is not `[a-z0-9-]{1,40}`.
 */
export function legacyHistoryFile(format: string | undefined): string {
  if (format === undefined) return LEGACY_HISTORY_FILE;
  if (!/^[a-z0-9-]{1,40}$/.test(format)) throw new MemoryMatrixError('INVALID_INPUT', `C20: payloadFormat must match [a-z0-9-]{1,40}, got ${JSON.stringify(format)}`);
  return path.join(path.dirname(LEGACY_HISTORY_FILE), `history-payloads.${format}.json`);
}

/** One case of the legacy file: payloads stored verbatim, and what reading them must give. */
export interface LegacyHistoryCase {
  name: string;
  description: string;
  payloads: string[];
  expect: { messages: ChatMessage[] } | { error: string };
  /** The case a session of this version continues (C20's last step); default: the case named `v1-upgrade`. */
  continued?: boolean;
}

/** Read and shape-check the legacy file; GOLDEN_INVALID / GOLDEN_MISSING naming the file and case. */
export function loadLegacyHistoryCases(file = LEGACY_HISTORY_FILE): LegacyHistoryCase[] {
  let doc: { format?: unknown; cases?: unknown };
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as typeof doc;
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new MemoryMatrixError(missing ? 'GOLDEN_MISSING' : 'GOLDEN_INVALID', `${file}: ${(e as Error).message}`, { cause: e });
  }
  if (doc.format !== 'memory-matrix/legacy-history@1' || !Array.isArray(doc.cases)) {
    throw new MemoryMatrixError('GOLDEN_INVALID', `${file}: expected format memory-matrix/legacy-history@1 with a cases list`);
  }
  return doc.cases.map((c: LegacyHistoryCase, i: number) => {
    const ok =
      typeof c?.name === 'string' &&
      Array.isArray(c.payloads) &&
      c.payloads.every((p) => typeof p === 'string') &&
      (Array.isArray((c.expect as { messages?: unknown })?.messages) || typeof (c.expect as { error?: unknown })?.error === 'string');
    if (!ok) throw new MemoryMatrixError('GOLDEN_INVALID', `${file}: cases[${i}] (${String(c?.name)}) needs name, payloads (strings) and expect.messages or expect.error`);
    return c;
  });
}

/**
 * C20 serde-compat: stored history payloads are versioned, and payloads of older or foreign formats
 * (golden-data/legacy/history-payloads.json; for a client library's own format
 * `history-payloads.<payloadFormat>.json`, `legacyHistoryFile`) read back exactly (upgraded) or
 * fail with the stated error code — never an empty or partial list. Also: what this version writes
 * carries a numeric version (`"v"`), and a session of an older format (the case marked
 * `continued`, else `v1-upgrade`) continued by this version reads as one history.
 */
export const c20SerdeCompat: CheckDefinition = {
  id: 'C20',
  name: 'serde-compat',
  requires: needs('history'),
  async run(cell) {
    const failures: Failure[] = [];
    const prefix = checkPrefix(cell, 'c20');
    const base = `s-${randomBytes(4).toString('hex')}`;
    const current = await openCheckHistory(cell, { sessionId: `${base}-current`, keyPrefix: prefix });
    const opened: ChatHistory[] = [current];
    const file = legacyHistoryFile(current.payloadFormat);
    const cases = loadLegacyHistoryCases(file);
    let upgraded = 0;
    let refused = 0;
    try {
      for (const c of cases) {
        const sessionId = `${base}-${c.name}`;
        const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'serde', `legacy case ${c.name} (session ${sessionId}): ${message}`, { id: c.name, ...extra }));
        const h = await openCheckHistory(cell, { sessionId, keyPrefix: prefix });
        opened.push(h);
        await h.writeRaw(c.payloads);
        let got: ChatMessage[] | undefined;
        let code: string | undefined;
        let message = '';
        try {
          got = await h.read();
        } catch (e) {
          code = typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : '<no code>';
          message = String((e as Error)?.message ?? e);
        }
        if ('messages' in c.expect) {
          if (got === undefined) fail(`read failed with ${code}: ${message}; expected ${c.expect.messages.length} messages`, { expected: c.expect.messages.length, actual: code });
          else {
            compareMessages(c.expect.messages, got, 'read()', fail);
            upgraded++;
          }
        } else if (got !== undefined) {
          fail(`read returned ${got.length} message(s)${got.length === 0 ? ' (an EMPTY list)' : ''} instead of failing with ${c.expect.error}`, { expected: c.expect.error, actual: got.length });
        } else if (code !== c.expect.error) {
          fail(`read failed with code ${code} (${message}), expected ${c.expect.error}`, { expected: c.expect.error, actual: code });
        } else refused++;
      }

      const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'serde', message, extra));
      const h = current;
      const mine = checkMessages(cell, 3);
      await h.append(mine);
      for (const [i, p] of (await h.readRaw()).entries()) {
        let v: unknown;
        try {
          v = (JSON.parse(p) as { v?: unknown }).v;
        } catch {
          v = undefined;
        }
        if (!(typeof v === 'number' && Number.isInteger(v) && v > 0)) fail(`payload ${i} written by this version carries no numeric version "v": ${p.slice(0, 120)}`, { rank: i + 1 });
      }
      const v1 = cases.find((c) => c.continued === true) ?? cases.find((c) => c.name === 'v1-upgrade');
      if (v1 && 'messages' in v1.expect) {
        const mixed = await openCheckHistory(cell, { sessionId: `${base}-continued`, keyPrefix: prefix });
        opened.push(mixed);
        await mixed.writeRaw(v1.payloads);
        await mixed.append(mine);
        compareMessages([...v1.expect.messages, ...mine], await mixed.read(), `${v1.name} session continued by this version`, fail);
      }
      return { figures: { legacyCases: cases.length, decoded: upgraded, refusedWithCode: refused, file: path.basename(file) }, failures };
    } finally {
      await Promise.allSettled(opened.map((h) => h.clear()));
    }
  },
};
