import { windowReference, type ChatMessage } from '@memory-matrix/spec';
import { codePoints, decodeMessage, encodeMessage, validateHistoryOptions } from '../src';

/** History payload versions (v2 written, v1 upgraded, the rest refused with a code) and options. */
const m: ChatMessage = { role: 'tool', content: '{"ok":true}\n記憶 👩‍👩‍👧', createdAt: '2024-05-01T09:30:00.123Z', metadata: { a: 0, b: '', c: false, d: null } };

test('v2 round-trips exactly and starts with its version', () => {
  const p = encodeMessage(m);
  expect(p.startsWith('{"v":2,')).toBe(true);
  expect(decodeMessage(p, 'k', 0)).toEqual(m);
});

test('v1 is upgraded: type → role, text → content, ts (epoch ms) → createdAt, meta → metadata', () => {
  expect(decodeMessage('{"v":1,"type":"ai","text":"hi","ts":1714555800123,"meta":{"x":0}}', 'k', 3)).toEqual({
    role: 'assistant',
    content: 'hi',
    createdAt: '2024-05-01T09:30:00.123Z',
    metadata: { x: 0 },
  });
  expect(decodeMessage('{"v":1,"type":"human","text":"","ts":0}', 'k', 0).metadata).toEqual({});
});

test.each([
  ['{"v":3,"role":"user"}', /payload version 3/],
  ['{"type":"human","data":{"content":"x"}}', /unversioned payload .*LangChain/],
  ['{"v":2,"role":"user","content":"tr', /not JSON/],
  ['{"v":2,"role":"bot","content":"x","createdAt":"2024-05-01T09:30:00.000Z","metadata":{}}', /invalid message: .*role/],
  ['{"v":1,"type":"function","text":"x","ts":0}', /type "function"/],
  ['[1,2]', /not a JSON object/],
])('refused with PAYLOAD_UNSUPPORTED naming key and index: %s', (raw, why) => {
  expect(() => decodeMessage(raw, 'mm:history:{s}:messages', 7)).toThrow(
    expect.objectContaining({ code: 'PAYLOAD_UNSUPPORTED', message: expect.stringMatching(new RegExp(`mm:history:\\{s\\}:messages\\[7\\]: .*${why.source}`)) }),
  );
});

test('code points (the maxChars unit) match the spec reference window', () => {
  expect(codePoints('a記👩‍👩‍👧')).toBe([...'a記👩‍👩‍👧'].length);
  const msgs = ['abc', '', '記憶🧠', 'xy'].map((content) => ({ ...m, content }));
  expect(windowReference(msgs, { maxChars: 5 }).map((x) => x.content)).toEqual(['', '記憶🧠', 'xy']);
  expect(windowReference(msgs, { maxChars: 1 }).map((x) => x.content)).toEqual(['xy']);
  expect(windowReference(msgs, { maxMessages: 1, maxChars: 100 }).map((x) => x.content)).toEqual(['xy']);
});

test('options: session id, prefix and TTL are validated; refresh defaults to true', () => {
  expect(validateHistoryOptions({ sessionId: 's1' })).toMatchObject({ keyPrefix: 'mm:history:', refreshTtlOnWrite: true });
  for (const bad of [{ sessionId: 'a{b}' }, { sessionId: 's', keyPrefix: 'x*' }, { sessionId: 's', ttlMs: 0 }, { sessionId: 's', window: { maxChars: 0 } }]) {
    expect(() => validateHistoryOptions(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  }
});
