/**
 * Personal-detail detectors, two independent sets:
 * - `STRICT`: what the redactor replaces (precise patterns, validated: Luhn for cards, digit counts
 *   for phones, a first-name list plus context for names);
 * - `LOOSE`: a second, deliberately over-inclusive pass used only to count what may remain after
 *   redaction (any `x@y`, any 13–19-digit run, any run of ≥ 10 digits with phone separators, any
 *   capitalised listed first name, any number followed by a street-type word). It shares no regex
 *   with `STRICT`, so it is a check on the redactor, not a repetition of it.
 * Every detector returns non-overlapping `[start, end)` spans of UTF-16 code units in its input.
 */
import { firstNames } from './names';

/** The redacted categories, in the order the redactor applies them. */
export const CATEGORIES = ['email', 'card', 'phone', 'address', 'name'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The typed placeholder that replaces a detection of each category. */
export const PLACEHOLDER: Record<Category, string> = { email: '[EMAIL]', card: '[CARD]', phone: '[PHONE]', address: '[ADDRESS]', name: '[NAME]' };

export type Span = [start: number, end: number];
export type Detector = (text: string) => Span[];

const spans = (re: RegExp, text: string, keep: (m: RegExpExecArray) => boolean = () => true, group = 0): Span[] => {
  const out: Span[] = [];
  for (const m of text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g'))) {
    if (!keep(m as RegExpExecArray)) continue;
    const start = (m.index ?? 0) + (group ? m[0].indexOf(m[group]!) : 0);
    out.push([start, start + m[group]!.length]);
  }
  return out;
};

const digits = (s: string) => s.replace(/\D/g, '');

/** Luhn checksum (ISO/IEC 7812-1 Annex B): true when the digit string is valid. */
export function luhnValid(d: string): boolean {
  let sum = 0;
  for (let i = 0; i < d.length; i += 1) {
    let x = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
    sum += x;
  }
  return sum % 10 === 0;
}

// Local part: RFC 5322 atext, dots and non-ASCII (mis-decoded) characters (so obfuscated "e$@host.com" or "!!!@host.org" count too).
const EMAIL = /[A-Za-z0-9._%+'!#$&*=?^`{|}~\u00a0-\uffff-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}/;
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/;
// NANP: optional +1, area code with or without parentheses, 3-4 digits with a separator.
const PHONE_NANP = /(?<![\w+.-])(?:\+?1[ .-]?)?(?:\(\d{3}\)\s?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w-]|\.\d)/;
// International: "+<country> …" or "00<country> …", groups separated by space, dot, dash, parentheses.
const PHONE_INTL = /(?<![\w+])(?:\+|00 ?)[1-9]\d{0,2}(?:[ .-]?\(?\d{1,5}\)?){2,6}(?![\w-]|\.\d)/;
// National numbers with a trunk 0 (UK, Ireland, Germany …): 0871 246 0002, 086-8888975, 0567 123 124.
const PHONE_TRUNK = /(?<![\w.+-])\(?0\d{1,4}\)?[ -]\d{3,8}(?:[ -]\d{3,4})?(?![\w-]|\.\d)/;
// Any digit run after a phone word: "Tel/Fax: 44-870-136-7079", "dial 1 530 927 055".
const PHONE_CONTEXT = /\b(?:Tel|Phone|Telephone|Fax|Mobile|Cell|Call|Dial|ph|Ph|TEL|PHONE|FAX)\b[^\d\n]{0,25}?(\+?\(?\d[\d ().-]{5,}\d)/i;
const STREET_TYPES = [
  'Street',
  'St',
  'Avenue',
  'Ave',
  'Road',
  'Rd',
  'Boulevard',
  'Blvd',
  'Lane',
  'Ln',
  'Drive',
  'Dr',
  'Court',
  'Ct',
  'Place',
  'Pl',
  'Way',
  'Terrace',
  'Parkway',
  'Pkwy',
  'Highway',
  'Hwy',
  'Circle',
  'Square',
  'Row',
  'Close',
  'Crescent',
  'Alley',
  'Plaza',
];
const STREET_ALT = STREET_TYPES.flatMap((t) => [t, t.toUpperCase()]).join('|');
const ADDRESS = new RegExp(
  `\\b\\d{1,6}[A-Za-z]?,?\\s+(?:(?:[NSEW]\\.?|North|South|East|West)\\s+)?(?:(?:[A-Z][A-Za-z'’.-]*|\\d+(?:st|nd|rd|th))\\s+){1,3}(?:${STREET_ALT})\\b\\.?(?:,?\\s+(?:Suite|Ste\\.?|Apt\\.?|Unit|#)\\s*[\\w-]+)?`,
);
// "716 Congress, Suite 200" (a street without a type word, with a unit) and "Austin, TX  78701".
const STREET_UNIT = /\b\d{1,6}\s+(?:[A-Z][A-Za-z'’.-]*\s+){0,2}[A-Z][A-Za-z'’.-]*,?\s+(?:Suite|Ste\.?|Apt\.?|Unit|Floor)\s*#?\s*\d+[A-Za-z]?\b/;
const CITY_STATE_ZIP = /\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)?,\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/;
const PO_BOX = /\b(?:P\.?\s?O\.?\s?Box|PO Box|Post Office Box)\s+\d+/i;
const CAP = "[A-Z][a-z'’-]+";
const TITLE_NAME = new RegExp(`\\b(?:Mr|Mrs|Ms|Miss|Dr|Prof)\\.?\\s+(${CAP}(?:\\s+${CAP})?)`);
// "Name Surname <a@b>" / "\"Name\" <a@b>" and "a@b (Name Surname)": e-mail display names.
const DISPLAY_BEFORE = /(?:^|(?<=[\s,:;]))"?([A-Z][\w.'’-]*(?:[ ,]+[A-Z][\w.'’-]*){0,3})"?\s*<[^<>\s]+@[^<>\s]+>/m;
// Any display name (even "jwz" or "ILUG") opening a header line or a whole value: "From: jwz <a@b>", "jwz <a@b>".
const HEADER_DISPLAY = /^(?:(?:From|To|Cc|Reply-To|Sender):[ \t]*)?"?([^"<>\n@:,]{1,60}?)"?[ \t]*<[^<>\s]+@[^<>\s]+>/m;
const DISPLAY_AFTER = /[^\s<>()]+@[^\s<>()]+\s+\(([A-Z][\w.'’-]*(?:\s+(?:(?:van|von|de|der|den|da|di|du|la|le|del|dos)\s+)?[A-Z][\w.'’-]*){0,3})\)/;
const GREETING = new RegExp(`\\b(?:Hi|Hello|Hey|Dear|Thanks|Thank you|Cheers|Regards|Best|Sincerely|Yours|Love|Ciao)[,!]?\\s+(${CAP}(?:\\s+${CAP})?)\\b`);
const SIGN_OFF = /^(?:--\s*|-- ?|(?:Best |Kind |Warm )?Regards,?|Thanks,?|Thank you,?|Cheers,?|Sincerely,?|Best,?|Yours,?|Later,?|Ciao,?)\s*$/im;
// "Reza B'Far wrote:", "> John Smith writes:"
const WROTE =
  /(?:^|\n)[> |\t]*(?:On [^\n]{0,60}?,\s)?([A-Z][\w'’.-]*(?:[ ][A-Z][\w'’.-]*){0,2}(?:\s(?:&|and)\s[A-Z][\w'’.-]*(?:[ ][A-Z][\w'’.-]*)?)?)\s+(?:wrote|writes|said|says|asked|sez|mentioned|replied|posted):/;
const INTRO = new RegExp(`\\b(?:[Mm]y name is|[Cc]all me|[Tt]his is|Behalf Of|From:|To:|Cc:)\\s+(${CAP}(?:\\s+${CAP}){0,2})`);
// Listed first names that are also common English words, places or products: never redacted alone mid-sentence.
const AMBIGUOUS = new Set(
  'Any Free Perl Darwin Man Art Will May June Page Bill Mark Grant Rose Hope Faith Joy Dawn Drew Chase Chance Cliff Dale Glen Guy Hunter Lane Miles Rich Skip Sky Ward Max Penny Ruby Amber April August Holly Ivy Crystal Star Angel Christian Frank Gay Honey Iris Lily Violet Sandra Major Royal Price Bond Gene Kit Van Dean Earl Duke King Prince Baron Sterling Victor Reed Brook Forest Storm Rock Cash Sol Sunny Merry Mercy Tab Bud Buck Fern Flora Ginger Hazel Heath Jade Jay Jean Nat Opal Pearl Pierce Red Reg Rod Rusty Spike Win Wolf Lincoln Washington Jefferson Jackson Madison Monroe Austin Dallas Jordan Florence Georgia Virginia Carolina Adelaide Sydney Victoria Regina Chelsea Kent Cornell Yale Mac Ada Julia Dot Linus Field Hill Wood Noble Hardy Patience Charity Harmony Melody Constance Prudence Patrick Christmas Easter Trinity Liberty Justice Celeste Dominique Mercedes Porsche Lotus Java Ebony Ivory Sherry Brandy Candy Cherry Olive Rosemary Basil Sage Jasmine Poppy Daisy Heather Laurel Myrtle Marina Jasper Ernest Clement Constant Sterling Urban Royce Benz Morgan Dell Compaq Gateway'.split(
    ' ',
  ),
);
// Capitalised words that follow a listed first name without being a surname.
const NOT_SURNAME = new Set([
  'The',
  'This',
  'That',
  'And',
  'But',
  'For',
  'You',
  'Your',
  'Are',
  'Is',
  'Was',
  'Has',
  'Had',
  'Will',
  'Can',
  'Not',
  'All',
  'Any',
  'I',
  'It',
  'If',
  'In',
  'On',
  'Of',
  'To',
  'At',
  'As',
  'By',
  'Or',
  'We',
  'He',
  'She',
  'They',
  'So',
  'No',
  'Yes',
  'New',
  'Day',
  'Street',
  'Avenue',
  'Road',
  'County',
  'University',
  'Company',
  'Inc',
  'Ltd',
]);

function listedNameSpans(text: string): Span[] {
  const names = firstNames();
  const out: Span[] = [];
  // The surname part is a lookahead, so "President Robert Mugabe" is tried at "Robert" too.
  const re = new RegExp(`\\b(${CAP})(?=((?:\\s+[A-Z]\\.)?\\s+(${CAP}(?:-${CAP})?))\\b)`, 'g');
  for (const m of text.matchAll(re)) {
    if (!names.has(m[1]!) || NOT_SURNAME.has(m[3]!) || NOT_SURNAME.has(m[1]!)) continue;
    out.push([m.index!, m.index! + m[1]!.length + m[2]!.length]);
  }
  return out;
}

/** Signature heuristic: the 1–3 capitalised words on the first non-empty line after a sign-off ("--", "Regards,", "Thanks,"). */
function signatureSpans(text: string): Span[] {
  const out: Span[] = [];
  const re = new RegExp(SIGN_OFF.source, 'gim');
  for (const m of text.matchAll(re)) {
    const after = text.slice(m.index! + m[0].length);
    const line = /^\s*\n\s*([^\n]*)/.exec(after);
    if (!line) continue;
    const cand = line[1]!.trimEnd();
    if (!new RegExp(`^${CAP}(?:\\s+(?:[A-Z]\\.\\s*)?${CAP}){0,2}$`).test(cand)) continue;
    const first = cand.split(/\s+/)[0]!;
    if (!firstNames().has(first)) continue;
    const start = m.index! + m[0].length + line[0].length - line[1]!.length;
    out.push([start, start + cand.length]);
  }
  return out;
}

/** A line that is only a listed first name (and maybe a surname): signatures, "> Dave", "- Adam L. Beberg". */
function nameLineSpans(text: string): Span[] {
  const re = new RegExp(`^[ \\t>|-]*(${CAP}(?:\\s+(?:[A-Z]\\.\\s+)?(?:"[^"\\n]{1,20}"\\s+)?${CAP})?)[ \\t]*[.,!]?[ \\t]*$`, 'gm');
  const out: Span[] = [];
  for (const m of text.matchAll(re)) {
    if (!firstNames().has(m[1]!.split(/\s+/)[0]!)) continue;
    const start = m.index! + m[0].indexOf(m[1]!);
    out.push([start, start + m[1]!.length]);
  }
  return out;
}

/** A listed, unambiguous first name opening a line and addressed: "> Daniel, it's easy", "Eliza and I". */
function vocativeSpans(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(new RegExp(`^[ \\t>|]*(${CAP})(?=,\\s| and (?:I|me)\\b)`, 'gm'))) {
    if (!firstNames().has(m[1]!) || AMBIGUOUS.has(m[1]!)) continue;
    const start = m.index! + m[0].length - m[1]!.length;
    out.push([start, start + m[1]!.length]);
  }
  return out;
}

/** A listed, unambiguous first name alone mid-sentence ("my daughter Tatum grabs"): after a lower-case word or comma. */
function midSentenceSpans(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(new RegExp(`(?<=[a-z0-9,;:)]\\s)${CAP}\\b|\\b${CAP}(?='s\\b)`, 'g'))) {
    if (!firstNames().has(m[0]) || AMBIGUOUS.has(m[0])) continue;
    out.push([m.index!, m.index! + m[0].length]);
  }
  return out;
}

const nameSpans: Detector = (t) => [
  ...spans(WROTE, t, () => true, 1),
  ...spans(INTRO, t, (m) => /^(?:[Mm]y name|[Cc]all me)/.test(m[0]) || firstNames().has(m[1]!.split(/\s+/)[0]!), 1),
  ...nameLineSpans(t),
  ...midSentenceSpans(t),
  ...vocativeSpans(t),
  ...spans(DISPLAY_BEFORE, t, (m) => firstNames().has(m[1]!.split(/[ ,]+/)[0]!.replace(/^"/, '')) || /\s/.test(m[1]!.trim()), 1),
  ...spans(DISPLAY_AFTER, t, () => true, 1),
  ...spans(HEADER_DISPLAY, t, (m) => /\p{L}/u.test(m[1]!) && !/^\[[A-Z]+\]$/.test(m[1]!.trim()), 1),
  ...spans(TITLE_NAME, t, () => true, 1),
  ...spans(GREETING, t, (m) => firstNames().has(m[1]!.split(/\s+/)[0]!), 1),
  ...listedNameSpans(t),
  ...signatureSpans(t),
];

/** The redactor's detectors (see the file comment). */
export const STRICT: Record<Category, Detector> = {
  email: (t) => spans(EMAIL, t),
  card: (t) =>
    spans(CARD, t, (m) => {
      const d = digits(m[0]);
      return d.length >= 13 && d.length <= 19 && luhnValid(d) && !/^(\d)\1+$/.test(d);
    }),
  phone: (t) => [
    ...spans(PHONE_NANP, t),
    ...spans(PHONE_INTL, t, (m) => digits(m[0]).length >= 8 && digits(m[0]).length <= 15),
    ...spans(PHONE_TRUNK, t, (m) => digits(m[0]).length >= 9 && digits(m[0]).length <= 12),
    ...spans(PHONE_CONTEXT, t, (m) => digits(m[1]!).length >= 7 && digits(m[1]!).length <= 15, 1),
  ],
  address: (t) => [...spans(ADDRESS, t), ...spans(PO_BOX, t), ...spans(STREET_UNIT, t), ...spans(CITY_STATE_ZIP, t)],
  name: nameSpans,
};

/** The looser, independent counting pass (see the file comment); never used to replace text. */
export const LOOSE: Record<Category, Detector> = {
  email: (t) => spans(/[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+\.[^\s<>()[\]"',;:]+/, t),
  card: (t) => spans(/\d(?:[ -]?\d){12,18}/, t),
  phone: (t) => spans(/\+?\(?\d[\d ().-]{8,}\d/, t, (m) => digits(m[0]).length >= 10 && digits(m[0]).length <= 15 && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(m[0])),
  address: (t) => [...spans(new RegExp(`\\b\\d+[A-Za-z]?[ \\t]+(?:[\\w'.-]+[ \\t]+){0,4}(?:${STREET_TYPES.join('|')})\\b`, 'i'), t), ...spans(/\bP\.?\s?O\.?\s?Box\s*\d+/i, t)],
  name: (t) => spans(/\b[A-Z][a-z]+\b/, t, (m) => firstNames().has(m[0])),
};

/** Merge overlapping / touching spans (sorted by start); the longer one wins on equal starts. */
export function mergeSpans(list: Span[]): Span[] {
  const sorted = [...list].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s[0] < last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}
