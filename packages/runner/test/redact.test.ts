/** Redaction detectors and the sampler's pure parts (mapping, source lookup, allocation, metadata), on hand-written strings. */
import { LOOSE, STRICT, luhnValid } from '../src/sample/detectors';
import { newTally, redactText, redactValue, redactionTable } from '../src/sample/redact';
import { pgvectorSampleSource } from '@memory-matrix/adapter-pgvector';
import type { SampleSource } from '@memory-matrix/spec';
import { applyColumns, formatMapping, parseColumns } from '../src/sample/columns';
import { findSampleSource, type SampleDriver } from '../src/sample/find-source';
import { allocate, StratifiedReservoir } from '../src/sample/select';
import { flattenMetadata } from '../src/sample/records';

describe('redactText: each category', () => {
  test.each([
    ['e-mail', 'write to jane.doe+news@mail.example.co.uk today', 'write to [EMAIL] today'],
    ['obfuscated e-mail local part', 'To: e$@vmeng.com', 'To: [EMAIL]'],
    ['NANP phone', 'call (555) 123-4567 or 555.987.6543 or +1 415-555-0100', 'call [PHONE] or [PHONE] or [PHONE]'],
    ['international phone', 'London +44 20 7946 0958, Paris +33 1 23 45 67 89, Dublin 00 353 818 304 304', 'London [PHONE], Paris [PHONE], Dublin [PHONE]'],
    ['national phone with trunk 0', 'booking line 0871 246 0002 (UK only)', 'booking line [PHONE] (UK only)'],
    ['phone after a phone word', 'Tel/Fax: 44-870-136-7079', 'Tel/Fax: [PHONE]'],
    ['card (Luhn-valid)', 'card 4111 1111 1111 1111 exp 12/25', 'card [CARD] exp 12/25'],
    ['street address', 'visit 1600 Pennsylvania Avenue NW or 221B Baker Street', 'visit [ADDRESS] NW or [ADDRESS]'],
    ['address with unit and city/state/zip', '716 Congress, Suite 200\nAustin, TX  78701', '[ADDRESS]\n[ADDRESS]'],
    ['P.O. Box', 'mail P.O. Box 1234 please', 'mail [ADDRESS] please'],
    ['first + last name', 'President Robert Mugabe spoke', 'President [NAME] spoke'],
    ['display name before <e-mail>', 'From: "John Smith" <john@example.com>', 'From: "[NAME]" <[EMAIL]>'],
    ['any display name in a header line or a whole value', 'From: jwz <jwz@jwz.org>\nTo: ILUG <ilug@linux.ie>', 'From: [NAME] <[EMAIL]>\nTo: [NAME] <[EMAIL]>'],
    ['"mentioned:" attribution', 'On Thu, Aug 22, 2002 at 05:13:01PM +0100, Fergal Moran mentioned:', 'On Thu, Aug 22, 2002 at 05:13:01PM +0100, [NAME] mentioned:'],
    ['display name after e-mail', 'From: guido@python.org (Guido van Rossum)', 'From: [EMAIL] ([NAME])'],
    ['greeting and signature', 'Hi Robert,\nsee you.\n\nRegards,\nPeter\n', 'Hi [NAME],\nsee you.\n\nRegards,\n[NAME]\n'],
    ['quoted signature line', '> thanks\n> Dave\n', '> thanks\n> [NAME]\n'],
    ['"wrote:" attribution', "Reza B'Far wrote:\n> text", '[NAME] wrote:\n> text'],
    ['"asked:" attribution of two', '>Helen & Mike wrote:\n  | Niall asked:', '>[NAME] wrote:\n  | [NAME] asked:'],
    ['addressed at line start', "> > Daniel, it's easy\nEliza and I went", "> > [NAME], it's easy\n[NAME] and I went"],
    ['title', 'ask Dr. Watson', 'ask Dr. [NAME]'],
    ['second pass: a number the first replacement brought in reach', 'Phone: +44 (0)707 53 57 57, (0)707 53 57 57 |', 'Phone: [PHONE], [PHONE] |'],
    ['non-ASCII e-mail local part', 'From: \u00e9n\u00e8\u00e7@dogma.slashnull.org', 'From: [EMAIL]'],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  test('things that are not personal details stay', () => {
    const s = 'Date 2002-08-22 12:36:23, IP 192.168.1.100, order 1234567890123, version 2.2_20000822, In June we go. Will it work? 4111-1111-1111-1112';
    expect(redactText(s)).toBe(s);
  });

  test('overlapping detections are joined, nothing survives half-redacted', () => {
    expect(redactText('6822 22nd Avenue North\nSaint Petersburg, FL 33710-3918')).not.toMatch(/\d{5}|Petersburg/);
  });

  test('Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
  });
});

describe('redaction of metadata and the table', () => {
  test('strings inside metadata are redacted recursively; numbers, booleans, keys kept', () => {
    const t = newTally();
    const v = redactValue({ from: 'Jane Doe <jane@x.org>', n: 3, ok: false, to: ['bob@y.com'], nested: { phone: '+44 20 7946 0958' } }, t);
    expect(v).toEqual({ from: '[NAME] <[EMAIL]>', n: 3, ok: false, to: ['[EMAIL]'], nested: { phone: '[PHONE]' } });
    const table = redactionTable(t);
    const row = (c: string) => table.find((r) => r.category === c)!;
    expect(row('email')).toMatchObject({ detected: 2, remaining: 0, fractionRemaining: 0 });
    expect(row('phone')).toMatchObject({ detected: 1, remaining: 0 });
    expect(row('name')).toMatchObject({ detected: 1, remaining: 0 });
    expect(row('all').detected).toBe(4);
    expect(t.strings).toBe(3);
  });

  test('the loose pass is independent: it counts what the strict pass leaves (a bad-Luhn card)', () => {
    const t = newTally();
    redactText('card 4111 1111 1111 1112', t);
    expect(t.before.card).toBe(0);
    expect(t.looseBefore.card).toBe(1);
    expect(t.looseAfter.card).toBe(1);
    expect(redactionTable(t).find((r) => r.category === 'card')!.looseFractionRemaining).toBe(1);
  });

  test('strict detectors find nothing in placeholders', () => {
    const s = '[EMAIL] [PHONE] [CARD] [NAME] [ADDRESS]';
    for (const d of [...Object.values(STRICT), ...Object.values(LOOSE)]) expect(d(s)).toEqual([]);
  });
});

describe('sampler parts', () => {
  test('--columns: overrides only; metadata keys (alternatives with |); errors name the entry', () => {
    const pg = pgvectorSampleSource;
    expect(parseColumns(undefined, pg)).toEqual({});
    expect(parseColumns('namespace=metadata.folder,created_at=created_at,kind=none,text=metadata.data', pg)).toEqual({
      namespace: { metadataKey: 'folder' },
      created_at: { column: 'created_at' },
      kind: null,
      text: { metadataKey: 'data' },
    });
    expect(parseColumns('created_at=metadata.created_at|createdAt,id=pk', pg)).toEqual({ created_at: { metadataKey: 'created_at', orKeys: ['createdAt'] }, id: 'pk' });
    expect(() => parseColumns('txt=body', pg)).toThrow(/unknown field "txt"/);
    expect(() => parseColumns('text', pg)).toThrow(/"text" is not field=column/);
    expect(() => parseColumns('text=body; drop table x', pg)).toThrow(/"body; drop table x" is not a column name \(\[A-Za-z_\]\[A-Za-z0-9_\$\]\*, ≤ 63 chars\) or metadata.<key>/);
    expect(() => parseColumns('id=none', pg)).toThrow(/"id" is required/);
    expect(() => parseColumns('id=metadata.k', pg)).toThrow(/only text, created_at, namespace, kind may come from a metadata key/);
    expect(() => parseColumns('kind=metadata.a|', pg)).toThrow(/an empty metadata key/);
    expect(() => applyColumns(pg.defaults.columns, parseColumns('metadata=none,kind=metadata.k', pg))).toThrow(/kind=metadata.k needs a metadata column/);
    expect(applyColumns(pg.defaults.columns, parseColumns('namespace=metadata.folder', pg))).toEqual({ ...pg.defaults.columns, namespace: { metadataKey: 'folder' } });
  });

  test('the printed mapping is --columns syntax and parses back to itself', () => {
    const pg = pgvectorSampleSource;
    for (const layout of pg.layouts!) {
      const printed = formatMapping(layout.mapping);
      expect(applyColumns(layout.mapping, parseColumns(printed, pg))).toEqual(layout.mapping);
      expect(applyColumns(pg.defaults.columns, parseColumns(printed, pg))).toEqual(layout.mapping);
    }
    expect(formatMapping(pg.layouts!.find((l) => l.name === 'mem0')!.mapping)).toBe(
      'id=id,text=metadata.data,embedding=vector,metadata=payload,created_at=metadata.created_at|createdAt,namespace=metadata.user_id,kind=none',
    );
  });

  // A source of no real backend: the parser and the lookup take everything backend-specific from it.
  const toySource = (scheme: string): SampleSource => ({
    description: `${scheme} store`,
    example: `${scheme}://user:pw@host/db`,
    accepts: (from) => from.startsWith(`${scheme}://`),
    safeUrl: (u) => u,
    defaults: { table: 'notes', columns: { id: 'key', text: { column: 'body' }, embedding: 'vec', metadata: null, created_at: null, namespace: null, kind: null }, description: 'key,body,vec' },
    columnName: { pattern: /^[a-z]+$/, description: 'lower-case letters' },
    embeddingNote: 'parsed as JSON',
    open: () => Promise.reject(new Error('not opened in this test')),
    parseEmbedding: (t) => Float32Array.from(JSON.parse(t) as number[]),
  });

  test('--columns over another source: its defaults and its column-name shape', () => {
    const toy = toySource('toy');
    expect(applyColumns(toy.defaults.columns, parseColumns(undefined, toy))).toEqual(toy.defaults.columns);
    expect(applyColumns(toy.defaults.columns, parseColumns('kind=metadata.k,metadata=meta', toy))).toMatchObject({ metadata: 'meta', kind: { metadataKey: 'k' }, id: 'key' });
    expect(() => parseColumns('text=Body', toy)).toThrow(/"Body" is not a column name \(lower-case letters\)/);
  });

  test('findSampleSource: <driver>@url= names the driver, a bare URL goes to the first source that accepts it, else USAGE naming every form', () => {
    const drivers: SampleDriver[] = [{ name: 'plain' }, { name: 'toy', sampleSource: toySource('toy') }, { name: 'other', sampleSource: toySource('oth') }];
    expect(findSampleSource('toy://h/db', drivers)).toMatchObject({ driver: 'toy', url: 'toy://h/db' });
    expect(findSampleSource('other@url=oth://h/db', drivers)).toMatchObject({ driver: 'other', url: 'oth://h/db' });
    const usage = (from: string) => {
      try {
        findSampleSource(from, drivers);
      } catch (e) {
        expect((e as { code?: string }).code).toBe('USAGE');
        return (e as Error).message;
      }
      throw new Error(`${from} was accepted`);
    };
    const forms = 'expected toy://user@host/db or toy@url=toy://…; oth://user@host/db or other@url=oth://… (the sampler reads an existing store; catalog targets start empty)';
    expect(usage('toy@url=oth://h/db')).toBe(`--from toy@url=oth://h/db: ${forms}`);
    expect(usage('plain@url=toy://h/db')).toBe(`--from plain@url=toy://h/db: ${forms}`);
    expect(usage('http://u:secret@h/db')).toBe(`--from http://u@h/db: ${forms}`);
    expect(usage('toy@1')).toMatch(/^--from toy@1: expected/);
  });

  test('findSampleSource with the pgvector source: the forms and message sample has always had', () => {
    const drivers: SampleDriver[] = [{ name: 'pgvector', sampleSource: pgvectorSampleSource }];
    expect(findSampleSource('postgresql://u@h/db', drivers).url).toBe('postgresql://u@h/db');
    expect(findSampleSource('pgvector@url=postgres://u:pw@h/db', drivers).url).toBe('postgres://u:pw@h/db');
    expect(() => findSampleSource('redis://u:pw@h:6379', drivers)).toThrow(
      '--from redis://u@h:6379: expected postgres://user@host:port/db or pgvector@url=postgres://… (the sampler reads an existing store; catalog targets start empty)',
    );
    expect(() => findSampleSource('pgvector@pg17', drivers)).toThrow(/^--from pgvector@pg17: expected postgres:/);
  });

  test('allocate: largest remainder, sums to total, never above a stratum', () => {
    expect(allocate([2500, 1400, 250, 500, 1396], 330)).toEqual([137, 76, 14, 27, 76]);
    expect(allocate([1, 1, 1], 2)).toEqual([1, 1, 0]);
    expect(allocate([3, 4], 10)).toEqual([3, 4]);
  });

  test('reservoir: the same seed picks the same ids whatever the read order; another seed others', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `m${i}`);
    const pick = (seed: number, order: string[]) => {
      const r = new StratifiedReservoir(seed, 40);
      for (const id of order) r.add(id, Number(id.slice(1)) % 5 === 0 ? 'a' : 'b');
      return r.choose(40).map((s) => [s.stratum, s.rows, [...s.chosen].sort()]);
    };
    const a = pick(1, ids);
    expect(pick(1, [...ids].reverse())).toEqual(a);
    expect(pick(2, ids)).not.toEqual(a);
    expect(a.map(([s, rows, c]) => [s, rows, (c as string[]).length])).toEqual([
      ['a', 100, 8],
      ['b', 400, 32],
    ]);
  });

  test('metadata flattening: nested objects to dotted keys, arrays to JSON text', () => {
    expect(flattenMetadata({ a: { b: 1, c: { d: 'x' } }, e: [1, 2], f: null })).toEqual({ 'a.b': 1, 'a.c.d': 'x', e: '[1,2]', f: null });
    expect(flattenMetadata('s')).toEqual({ value: 's' });
  });
});
