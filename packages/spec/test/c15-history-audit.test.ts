/**
 * The chat-history audit of C15 without a backend: what a session holds after a restart, compared
 * with what was sent (acknowledged and in-flight calls), classifies lost, phantom, duplicated,
 * reordered and changed messages, and flags a call that survived in part.
 */
import { auditSession } from '../src/checks/c15-history-audit';
import type { SentMessage } from '../src/checks/c15-history-stream';
import type { ChatMessage } from '../src/history';

const msg = (seq: number): ChatMessage => ({ role: 'user', content: `m${seq}`, createdAt: '2024-05-01T09:30:00.123Z', metadata: { mid: `s1#${seq}`, turn: 0 } });

/** Calls of 2 messages: calls 1-3 acknowledged (seq 0-5), call 4 in flight (seq 6-7). */
const sent: SentMessage[] = Array.from({ length: 8 }, (_, seq) => ({
  mid: `s1#${seq}`,
  message: msg(seq),
  call: `1/1/${Math.floor(seq / 2) + 1}`,
  callSize: 2,
  acked: seq < 6,
  cycle: 1,
  msBeforeKill: 10,
}));

test('everything acknowledged back, in order, plus the whole in-flight call: no problem', () => {
  const got = [0, 1, 2, 3, 4, 5, 6, 7].map(msg);
  const a = auditSession('s1', sent, got, got.length, '[x]');
  expect(a).toMatchObject({ read: 8, lost: [], phantomInFlight: 2, phantomUnknown: 0, duplicated: 0, changed: 0, reordered: 0, problems: [] });
});

test('a lost tail of acknowledged calls is lost, not a problem (the configuration decides)', () => {
  const got = [0, 1, 2, 3].map(msg);
  const a = auditSession('s1', sent, got, 4, '[x]');
  expect(a.lost).toEqual(['s1#4', 's1#5']);
  expect(a.problems).toEqual([]);
});

test('duplicates, reordering, changed content, unknown messages, partial calls and a wrong length are problems', () => {
  const changed = { ...msg(3), content: 'other' };
  const unknown: ChatMessage = { role: 'tool', content: 'never sent', createdAt: '2024-05-01T09:30:00.123Z', metadata: {} };
  const got = [msg(0), msg(2), msg(1), changed, msg(3), unknown, msg(6)];
  const a = auditSession('s1', sent, got, 9, '[x] cycle 1');
  expect(a).toMatchObject({ read: 7, lost: ['s1#4', 's1#5'], phantomInFlight: 1, phantomUnknown: 1, duplicated: 1, changed: 1, reordered: 1 });
  const kinds = a.problems.map((p) => p.kind).sort();
  expect(kinds).toEqual(['durability-changed', 'durability-count', 'durability-duplicate', 'durability-partial', 'durability-phantom', 'durability-reordered']);
  expect(a.problems.find((p) => p.kind === 'durability-partial')!.message).toContain('[x] cycle 1 session s1: append call 1/1/4');
  expect(a.problems.find((p) => p.kind === 'durability-changed')!.message).toContain('content expected "m3" got "other"');
});
