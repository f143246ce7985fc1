/**
 * Strings a user's memory store really holds and that every store must keep byte for byte: what
 * the golden format AND the adapter contract allow (packages/spec/src/stored-text.ts; FORMAT.md
 * "Strings and numbers every store must keep"). Each is applied to a real sentence; nothing here
 * is random. NUL, lone surrogates, empty or `$`-leading metadata keys and −0 are refused by the
 * contract and the loader, so they are not here (packages/spec/test/golden-loader-strings.test.ts).
 */

/** Text transforms: [label, (realSentence, longText) => text]. */
export const TEXTS = [
  ['emoji, astral plane', (t) => `${t} 🧠🐋🎉`],
  ['ZWJ emoji sequence', (t) => `👩‍👩‍👧‍👦 ${t} 🏳️‍🌈`],
  ['flags and skin tones', (t) => `🇯🇵🇫🇷 ${t} 👍🏽`],
  ['tag sequence flag', (t) => `🏴󠁧󠁢󠁳󠁣󠁴󠁿 ${t}`],
  ['combining marks (NFD)', (t) => `Cafe\u0301 re\u0301sume\u0301: ${t}`],
  ['precomposed (NFC)', (t) => `Café résumé: ${t}`],
  ['stacked combining marks', (t) => `a\u0300\u0301\u0302\u0303\u0304 ${t}`],
  ['RTL Hebrew + Arabic', (t) => `שלום עולם — مرحبا بالعالم: ${t}`],
  ['bidi controls', (t) => `\u202Eabc\u202C \u200Fright\u200E ${t}`],
  ['CJK', (t) => `我记得：${t}（メモ）한국어`],
  ['CJK extension B (astral)', (t) => `𠀀𠮷𡈽 ${t}`],
  ['zero-width characters', (t) => `zero\u200Bwidth\u200Cnon\u200Djoiner\u2060word\uFEFFbom ${t}`],
  ['backslashes and quotes', (t) => `C:\\Users\\me\\notes.txt said "hi" and 'bye' \\n \\u0000 \\\\ ${t}`],
  ['SQL-ish', (t) => `'; DROP TABLE memories; -- ${t} %_ LIKE '%a_b%' OR 1=1`],
  ['JSON-ish', (t) => `{"id":"mem-0001","$set":{"a":1},"text":null} [1,2,3] ${t}`],
  ['newlines, CR, tab', (t) => `line one\nline two\r\nline three\ttabbed\r${t}`],
  ['C0/C1 controls and separators', (t) => `\u0001\u0007\u001B[31m\u001F\u007F\u0085\u2028\u2029 ${t}`],
  ['leading and trailing spaces', (t) => `   ${t}   `],
  ['noncharacters and private use', (t) => `\uFFFE\uFFFF\uFDD0\uE000 ${t} \u{10FFFF}\u{F0000}`],
  ['homoglyphs', (t) => `pаypal (Cyrillic а) vs paypal: ${t}`],
  ['math alphanumerics', (t) => `𝐇𝐞𝐥𝐥𝐨 𝔀𝓸𝓻𝓵𝓭 ${t}`],
  ['HTML', (t) => `<script>alert("x")</script> &amp; &lt;b&gt; ${t}`],
  ['URL with percent-encoding', (t) => `https://example.com/a%20b?q=%00%FF&x=1#frag ${t}`],
  ['literal words', () => 'null'],
  ['literal words', () => 'undefined'],
  ['literal words', () => 'NaN'],
  ['literal words', () => '0'],
  ['single space', () => ' '],
  ['single astral character', () => '🧠'],
  ['very long text', (t, long) => long],
];

/** Odd metadata keys: every one must be stored and filterable as written. */
export const KEYS = [
  'key with space',
  'a.b.c',
  'a[0]',
  'x->y',
  'ключ',
  'キー',
  '🔑',
  'key"quote',
  "key'apos",
  'key\\back',
  'UPPER',
  'upper',
  'id',
  'text',
  'namespace',
  'metadata',
  'vector',
  '_distance',
  'mm.ns',
  'n.x',
  'chroma:document',
  'price$',
  ' lead',
  'k'.repeat(200),
  'constructor',
  'toString',
  'é',
  'e\u0301',
];

/** Odd metadata values (strings, numbers at the edges of float64 and of the safe integers, booleans, null). */
export const VALUES = [
  '',
  ' ',
  'null',
  'true',
  '0',
  '🧠',
  'e\u0301',
  'é',
  "'; DROP TABLE x; --",
  '{"a":1}',
  'line\nbreak',
  '\\',
  '"',
  '\u0001',
  '\u2028',
  0,
  1,
  -1,
  0.1,
  -2.5,
  1e-300,
  5e-324,
  1.7976931348623157e308,
  -1.7976931348623157e308,
  9007199254740991,
  -9007199254740991,
  123456789.12345679,
  1e21,
  true,
  false,
  null,
];

/** Odd ids (ids are any well-formed string of 1..256 UTF-16 code units). */
export const IDS = [
  'mem with space',
  'mem/with/slash',
  'mem:colon',
  'mém-ünïcode',
  'mem-🧠',
  "mem'quote",
  'mem"dq',
  'mem\\back',
  'MEM-CASE',
  'mem-case',
  'mem%20',
  'mem.dot',
  '1',
  ' mem-lead-space',
  'i'.repeat(256),
  'ＦＵＬＬＷＩＤＴＨ',
  'שלום',
  'mem\u200Bzw',
];

/** Odd namespaces (non-empty strings). */
export const NAMESPACES = ['user 1', 'user/ü', 'ユーザー', 'user.with.dots', 'user-🧠', "o'brien"];
