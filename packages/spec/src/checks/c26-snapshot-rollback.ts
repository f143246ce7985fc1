import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { C26_EXPECTED_DUMP_FILE } from '@memory-matrix/golden-data';
import type { Failure } from '../comparator';
import { MemoryMatrixError } from '../errors';
import type { ChatMessage } from '../history';
import { CHAT_ROLES } from '../history';
import { LineSplitter } from '../lines';
import { hasSnapshots, processRecipeOf, type SnapshotInfo } from '../snapshots';
import { type CheckDefinition, failure, needs } from './check';
import { checkPrefix, messageDifference, openCheckHistory } from './helpers/history';
import type { ChildInput, ChildOp } from './c26-child';
import { scaledLimitMs } from '../host';
import { armLimitTimer } from '../timer';

/** The committed expected dump: `snapshots/c26-expected-dump.json` of `@memory-matrix/golden-data` (the repository's golden-data/ folder). */
export const C26_EXPECTED_DUMP: string = C26_EXPECTED_DUMP_FILE;
/** The child's script, beside this file: c26-child.ts from the sources, c26-child.js from a built package (dist/). */
const CHILD = path.join(__dirname, `c26-child${path.extname(__filename)}`);
/** Kill cycles of the rollback-under-SIGKILL part. */
export const KILL_CYCLES = 5;
/** Messages of the two snapshots: S1 holds the first S1_SIZE, S2 the first S2_SIZE. */
const S1_SIZE = 40;
const S2_SIZE = 120;

/** The check's messages, the same on every run and target: roles cycling, CJK, emoji, escapes, an empty content, falsy metadata of every type. */
export function c26Messages(n: number): ChatMessage[] {
  const texts = ['我想记住：周三下午三点和牙医有约 🦷', 'Noted — dentist, Wednesday 15:00. 👍', '', 'line 1\nline 2\t"quoted" \\ back\\slash', '家族 👩‍👩‍👧‍👦 記憶', 'plain turn'];
  const t0 = Date.UTC(2024, 4, 1, 9, 30);
  return Array.from({ length: n }, (_, i) => ({
    role: CHAT_ROLES[i % CHAT_ROLES.length]!,
    content: `${texts[i % texts.length]!}${i % texts.length === 2 ? '' : ` #${i + 1}`}`,
    createdAt: new Date(t0 + i * 1500 + (i % 7)).toISOString(),
    metadata: { turn: i + 1, pinned: i % 3 === 0, importance: i % 4 === 0 ? 0 : i % 4, source: i % 5 === 0 ? '' : 'c26', thread: i % 6 === 0 ? null : 'main' },
  }));
}

/** The canonical dump of a session: its messages, then every snapshot's, snapshots named S1, S2 … in listing order (ids are the adapter's). */
export interface SessionDump {
  format: 'memory-matrix/c26-dump@1';
  messages: ChatMessage[];
  snapshots: Array<{ name: string; messages: ChatMessage[] }>;
}

interface ChildRun {
  results: Map<number, unknown>;
  progress: number;
  error?: { op: number; code?: string; message: string };
  signal: NodeJS.Signals | null;
  status: number | null;
  stderr: string;
}

/**
 * Run one child process (c26-child through tsx, so a store module in TypeScript loads too) with `ops`; with `killAfterMs`, SIGKILL it that
 * many ms after its first `progress` line (the parent only kills processes it started, by pid). A child still running after
 * `timeoutMs` (default 60 s × the host factor, host.ts) is killed as hung.
 */
export function runChild(input: ChildInput, killAfterMs?: number, timeoutMs = scaledLimitMs(60_000)): Promise<ChildRun> {
  const tsx = require.resolve('tsx/cjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', tsx, CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
    const run: ChildRun = { results: new Map(), progress: 0, signal: null, status: null, stderr: '' };
    const lines = new LineSplitter();
    let killTimer: NodeJS.Timeout | undefined;
    const guard = armLimitTimer(() => child.kill('SIGKILL'), timeoutMs, { ref: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      for (const line of lines.push(d)) {
        if (!line.trim()) continue;
        const m = JSON.parse(line) as { op?: number; ok?: unknown; error?: { code?: string; message: string }; progress?: number };
        if (m.progress !== undefined) {
          run.progress = m.progress;
          if (killAfterMs !== undefined && killTimer === undefined) killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        } else if (m.error) run.error = { op: m.op ?? -1, ...m.error };
        else run.results.set(m.op!, m.ok);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (run.stderr += d));
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(guard);
      if (killTimer) clearTimeout(killTimer);
      run.status = status;
      run.signal = signal;
      resolve(run);
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/**
 * C26 snapshot-rollback across processes, for targets with chat history and snapshots whose store
 * another process can open (`ProcessRecipe`): process A appends 40 turns, saves S1, appends 80
 * more, saves S2 and exits; process V lists the snapshots and reads each (exactly S1 then S2, each
 * with its 40 / 120 turns: the check's own assertion, not the adapter's guard); process B appends one more, rolls back to S1 (the state must equal S1
 * exactly), lists the snapshots (S1 and S2 both still there), rolls back to S2 (equals S2), and
 * reads both snapshots again (unchanged by the rollbacks). Then
 * KILL_CYCLES times a process loops rollbacks S1 ↔ S2 and is SIGKILLed a random 1–30 ms after
 * its first one: the next process must find exactly S1's or S2's state, both snapshots, and roll
 * back to S1. Finally the session is rolled back to S2 and its canonical dump (messages and every
 * snapshot's, in order; not the file's bytes) compared with the committed expected dump
 * (`MM_UPDATE_GOLDEN=1` re-records it). Failures name session, snapshot, turn and what differs.
 */
export const c26SnapshotRollback: CheckDefinition = {
  id: 'C26',
  name: 'snapshot-rollback',
  requires: needs('history', 'snapshots'),
  timeoutMs: 300_000,
  async run(cell) {
    const failures: Failure[] = [];
    const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'history', message, extra));
    const store = await cell.connect();
    const recipe = processRecipeOf(store);
    if (!recipe)
      throw new MemoryMatrixError('CAPABILITY_MISSING', `${cell.target}: capability snapshots is declared but adapter ${store.adapter} gives no processRecipe (how another process opens the store)`);
    const keyPrefix = checkPrefix(cell, 'c26');
    const sessionId = `s-${randomBytes(4).toString('hex')}`;
    const where = `session ${keyPrefix}${sessionId}`;
    const msgs = c26Messages(S2_SIZE + 1);
    const s1State = msgs.slice(0, S1_SIZE);
    const s2State = msgs.slice(0, S2_SIZE);
    const child = async (label: string, ops: ChildOp[], killAfterMs?: number): Promise<ChildRun> => {
      const r = await runChild({ recipe, sessionId, keyPrefix, ops }, killAfterMs);
      if (r.error) {
        const op = ops[r.error.op];
        const snap = op && 'id' in op ? ` ${op.id}` : '';
        fail(`${where}: process ${label}, operation ${r.error.op + 1} (${op?.op ?? 'open'}${snap}) failed with ${r.error.code ?? '<no code>'}: ${r.error.message}`, {
          id: op && 'id' in op ? op.id : undefined,
          actual: r.error.code,
        });
      } else if (killAfterMs === undefined && r.status !== 0) {
        throw new MemoryMatrixError('BACKEND_ERROR', `${cell.target}: ${where}: process ${label} exited with ${r.status ?? r.signal}: ${r.stderr.slice(-500)}`);
      }
      return r;
    };
    const sameAs = (want: ChatMessage[], got: unknown, what: string, snapshot: string): boolean => {
      const list = Array.isArray(got) ? (got as ChatMessage[]) : [];
      const ok = list.length === want.length;
      if (!ok) fail(`${where}: ${what}: ${list.length} messages, expected ${want.length} (snapshot ${snapshot})`, { id: snapshot, expected: want.length, actual: list.length });
      for (let i = 0; i < Math.max(want.length, list.length); i++) {
        const d = want[i] ? messageDifference(want[i]!, list[i]) : 'unexpected extra message';
        if (d) {
          fail(`${where}: ${what}: snapshot ${snapshot}, turn ${i + 1}: ${d}`, { id: snapshot, rank: i + 1 });
          return false;
        }
      }
      return ok;
    };
    const listed = (got: unknown, ids: string[], what: string): void => {
      const have = new Set((Array.isArray(got) ? (got as SnapshotInfo[]) : []).map((s) => s.id));
      for (const id of ids) if (!have.has(id)) fail(`${where}: ${what}: snapshot ${id} is gone (listSnapshots: ${[...have].join(', ') || 'none'})`, { id, expected: 'present', actual: 'missing' });
    };
    /** A `dump` result whose snapshots are exactly S1 then S2 (ids `s1`, `s2`), each holding its state. */
    const snapshotsHold = (got: unknown, s1: string, s2: string, what: string): void => {
      const snaps = (got as { snapshots?: Array<{ id: string; messages: ChatMessage[] }> } | undefined)?.snapshots ?? [];
      const ids = snaps.map((x) => x.id);
      if (ids.length !== 2 || ids[0] !== s1 || ids[1] !== s2)
        fail(`${where}: ${what}: snapshots listed [${ids.join(', ')}], expected [${s1}, ${s2}] (oldest first)`, { expected: `${s1}, ${s2}`, actual: ids.join(', ') });
      const one = (id: string, want: ChatMessage[], name: string) => {
        const x = snaps.find((y) => y.id === id);
        if (x) sameAs(want, x.messages, `${what}: readSnapshot ${name}`, id);
      };
      one(s1, s1State, 'S1');
      one(s2, s2State, 'S2');
    };
    let killed = 0;
    let before = 0;
    let after = 0;
    let rollbacksInKilled = 0;
    const figures = () => ({
      processes: 4 + 2 * KILL_CYCLES,
      killCycles: KILL_CYCLES,
      killed,
      stateBefore: before,
      stateAfter: after,
      rollbacksInKilledProcesses: rollbacksInKilled,
      s1Messages: S1_SIZE,
      s2Messages: S2_SIZE,
      expectedDump: path.basename(C26_EXPECTED_DUMP),
    });
    try {
      const a = await child('A', [{ op: 'append', messages: s1State }, { op: 'save' }, { op: 'append', messages: msgs.slice(S1_SIZE, S2_SIZE) }, { op: 'save' }]);
      const s1 = String(a.results.get(1));
      const s2 = String(a.results.get(3));
      if (a.error) return { figures: figures(), failures, notes: ['stopped after process A'] };
      // What A left, read by a process of its own before anything else touches the session: the
      // check's own assertion that both snapshots were committed with their content (a snapshot
      // written in a transaction that never commits is caught here, not by the adapter's error).
      const v = await child('V', [{ op: 'dump' }]);
      if (v.results.has(0)) snapshotsHold(v.results.get(0), s1, s2, 'process V after process A exited');
      const b = await child('B', [
        { op: 'append', messages: [msgs[S2_SIZE]!] },
        { op: 'rollback', id: s1 },
        { op: 'read' },
        { op: 'list' },
        { op: 'rollback', id: s2 },
        { op: 'read' },
        { op: 'dump' },
      ]);
      if (b.results.has(2)) sameAs(s1State, b.results.get(2), 'process B after rollback to S1', s1);
      if (b.results.has(3)) listed(b.results.get(3), [s1, s2], 'process B after rollback to S1');
      if (b.results.has(5)) sameAs(s2State, b.results.get(5), 'process B after rollback to S2', s2);
      // Rollbacks leave every snapshot in place with its content (a rollback that deletes or rewrites snapshots).
      if (b.results.has(6)) snapshotsHold(b.results.get(6), s1, s2, 'process B after its two rollbacks');
      if (a.error || v.error || b.error) return { figures: figures(), failures, notes: ['stopped after process B: the kill cycles need both snapshots'] };

      for (let cycle = 1; cycle <= KILL_CYCLES; cycle++) {
        const delay = 1 + Math.floor(Math.random() * 30);
        const k = await child(`C${cycle}`, [{ op: 'loop', ids: [s1, s2] }], delay);
        if (k.signal === 'SIGKILL') killed++;
        rollbacksInKilled += k.progress;
        const d = await child(`D${cycle}`, [{ op: 'read' }, { op: 'list' }, { op: 'rollback', id: s1 }, { op: 'read' }]);
        if (d.error) break;
        const state = d.results.get(0) as ChatMessage[];
        const isS1 = state.length === s1State.length && state.every((m, i) => messageDifference(s1State[i]!, m) === null);
        const isS2 = state.length === s2State.length && state.every((m, i) => messageDifference(s2State[i]!, m) === null);
        if (isS1) before++;
        else if (isS2) after++;
        else {
          const near = state.length <= (S1_SIZE + S2_SIZE) / 2 ? s1State : s2State;
          const i = near.findIndex((m, j) => messageDifference(m, state[j]) !== null);
          fail(
            `${where}: kill cycle ${cycle} (SIGKILL ${delay} ms after the first rollback of the loop, ${k.progress} completed): the state is neither S1 (${s1}) nor S2 (${s2}): ${state.length} messages${i >= 0 ? `, turn ${i + 1} ${messageDifference(near[i]!, state[i])}` : ''}`,
            { id: near === s1State ? s1 : s2, rank: i + 1 },
          );
        }
        listed(d.results.get(1), [s1, s2], `after kill cycle ${cycle}`);
        sameAs(s1State, d.results.get(3), `the process after kill cycle ${cycle}, rollback to S1`, s1);
      }

      const e = await child('E', [{ op: 'rollback', id: s2 }, { op: 'dump' }]);
      if (e.error || failures.length) return { figures: figures(), failures, notes: ['the dump was not compared: earlier steps failed'] };
      const raw = e.results.get(1) as { messages: ChatMessage[]; snapshots: Array<{ id: string; messages: ChatMessage[] }> };
      const dump: SessionDump = { format: 'memory-matrix/c26-dump@1', messages: raw.messages, snapshots: raw.snapshots.map((s, i) => ({ name: `S${i + 1}`, messages: s.messages })) };
      compareDump(
        dump,
        raw.snapshots.map((s) => s.id),
        where,
        fail,
      );
      return { figures: figures(), failures };
    } finally {
      const h = await openCheckHistory(cell, { sessionId, keyPrefix });
      if (hasSnapshots(h)) await h.clear();
    }
  },
};

/** Compare a dump with the committed one (re-recorded when MM_UPDATE_GOLDEN=1); GOLDEN_MISSING when absent. */
function compareDump(dump: SessionDump, ids: string[], where: string, fail: (m: string, e?: Partial<Failure>) => void): void {
  if (process.env.MM_UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(C26_EXPECTED_DUMP), { recursive: true });
    writeFileSync(C26_EXPECTED_DUMP, `${JSON.stringify(dump, null, 1)}\n`);
    return;
  }
  if (!existsSync(C26_EXPECTED_DUMP)) throw new MemoryMatrixError('GOLDEN_MISSING', `${C26_EXPECTED_DUMP} is missing; record it with --update-golden (MM_UPDATE_GOLDEN=1)`);
  const want = JSON.parse(readFileSync(C26_EXPECTED_DUMP, 'utf8')) as SessionDump;
  const parts: Array<[string, string | undefined, ChatMessage[], ChatMessage[] | undefined]> = [
    ['the session', undefined, want.messages, dump.messages],
    ...want.snapshots.map((s, i) => [`snapshot ${s.name}`, ids[i], s.messages, dump.snapshots[i]?.messages] as [string, string | undefined, ChatMessage[], ChatMessage[] | undefined]),
  ];
  if (dump.snapshots.length !== want.snapshots.length)
    fail(`${where}: dump has ${dump.snapshots.length} snapshots, the expected dump ${want.snapshots.length}`, { expected: want.snapshots.length, actual: dump.snapshots.length });
  for (const [what, id, w, g] of parts) {
    if (!g) continue;
    if (g.length !== w.length) fail(`${where}: dump of ${what}${id ? ` (${id})` : ''}: ${g.length} messages, expected ${w.length}`, { id, expected: w.length, actual: g.length });
    const i = w.findIndex((m, j) => messageDifference(m, g[j]) !== null);
    if (i >= 0) fail(`${where}: dump of ${what}${id ? ` (${id})` : ''}: turn ${i + 1}: ${messageDifference(w[i]!, g[i])} (${path.basename(C26_EXPECTED_DUMP)})`, { id, rank: i + 1 });
  }
}
