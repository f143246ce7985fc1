import { codePoints, decodeChatMessage, encodeChatMessage, outsideWindow, rowHistorySession, validateChatMessage, windowReference, type ChatMessage, type InputRules } from '../src';

/** The shared chat-history pieces (src/history-payload.ts, src/history-rows.ts) the Redis, SQLite and LanceDB adapters use. */

const RULES: InputRules = { adapter: 'toy' };
const m: ChatMessage = { role: 'user', content: '記憶 👩‍👩‍👧 "q"', createdAt: '2024-05-01T09:30:00.123Z', metadata: { a: 0, b: '', c: false, d: null } };

test('v2 round-trips; the error names the adapter and where the payload was read', () => {
  expect(decodeChatMessage(encodeChatMessage(m), 'session s turn 1', RULES)).toEqual(m);
  expect(() => decodeChatMessage('{"v":9}', 'session s turn 4', RULES)).toThrow(
    expect.objectContaining({ code: 'PAYLOAD_UNSUPPORTED', message: expect.stringMatching(/^toy: session s turn 4: payload version 9 /) }),
  );
});

test('messages are validated under the adapter rules: calendar-invalid createdAt, −0 in metadata, lone surrogate', () => {
  for (const bad of [{ createdAt: '2024-02-30T00:00:00.000Z' }, { createdAt: '2024-05-01T09:30:00.123456Z' }, { metadata: { x: -0 } }, { content: 'a\uD800' }]) {
    expect(() => validateChatMessage({ ...m, ...bad }, 'append: message 0', RULES)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/^toy: append: message 0/) }),
    );
  }
});

test('outsideWindow drops exactly what the checks’ reference window does not keep', () => {
  const contents = ['abc', '', '記憶🧠', 'xy', '👩‍👩‍👧', 'long message here', 'z'];
  const msgs = contents.map((content) => ({ ...m, content }));
  const rows = msgs.map((x, i) => ({ i, chars: codePoints(x.content) }));
  for (const maxMessages of [undefined, 1, 2, 3, 7, 9]) {
    for (const maxChars of [undefined, 1, 2, 5, 8, 20, 100]) {
      const w = { maxMessages, maxChars };
      expect(outsideWindow(rows, w).length).toBe(msgs.length - windowReference(msgs, w).length);
    }
  }
});

test('row sessions: defaults, named errors, no TTL', () => {
  expect(rowHistorySession({ sessionId: 's1' }, 'toy', 'Toy rows')).toEqual({ sessionId: 's1', keyPrefix: 'mm:history:', window: undefined, where: 'session mm:history:s1' });
  expect(() => rowHistorySession({ sessionId: 'a b' }, 'toy', 'Toy rows')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/^toy: openHistory: sessionId/) }));
  expect(() => rowHistorySession({ sessionId: 's', keyPrefix: 'x y' }, 'toy', 'Toy rows')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/keyPrefix/) }));
  expect(() => rowHistorySession({ sessionId: 's', window: { maxChars: 0 } }, 'toy', 'Toy rows')).toThrow(
    expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/window\.maxChars/) }),
  );
  expect(() => rowHistorySession({ sessionId: 's', ttlMs: 1000 }, 'toy', 'Toy rows')).toThrow(
    expect.objectContaining({ code: 'CAPABILITY_MISSING', message: expect.stringMatching(/Toy rows have no TTL/) }),
  );
});
