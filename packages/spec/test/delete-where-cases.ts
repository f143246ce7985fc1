import type { MemoryCollection } from '../src/adapter';
import { matchesFilter } from '../src/filter';
import { parseFilter } from '../src/filter-lang/parse';
import type { MemoryRecord, RecallFilter } from '../src/types';

/*
 * The `deleteWhere` test every adapter that declares `deleteByFilter` runs on its real backend
 * (adapter test files import it, as filter-set-cases.ts): two users, metadata with the falsy values
 * and a missing key, deletes scoped by namespace, by namespace + `where`, by `where` alone and by
 * metadata; after each, the returned count, `get`, `count` (whole, per user, under the same
 * filter) and an exact recall must show exactly the reference's matches gone (spec
 * `matchesFilter`), everything else intact.
 */

/** The records of the test: dimension 3, cosine-safe (no zero vector), users `u-a` (6) and `u-b` (4). */
export function deleteWhereRecords(): MemoryRecord[] {
  const rec = (id: string, namespace: string, i: number, metadata: MemoryRecord['metadata']): MemoryRecord => ({
    id,
    namespace,
    kind: i % 2 ? 'fact' : 'episode',
    text: `memory ${id}`,
    createdAt: `2024-05-0${1 + (i % 9)}T09:30:00.000Z`,
    metadata,
    embedding: Float32Array.from([1, i / 10, (i % 3) - 1]),
  });
  return [
    rec('a1', 'u-a', 1, { topic: 'work', flag: 0 }),
    rec('a2', 'u-a', 2, { topic: 'work', flag: false }),
    rec('a3', 'u-a', 3, { topic: 'home', flag: '' }),
    rec('a4', 'u-a', 4, { topic: 'work' }),
    rec('a5', 'u-a', 5, { topic: 'home', flag: 0 }),
    rec('a6', 'u-a', 6, { topic: 'work', flag: null }),
    rec('b1', 'u-b', 7, { topic: 'work', flag: 0 }),
    rec('b2', 'u-b', 8, { topic: 'home' }),
    rec('b3', 'u-b', 9, { topic: 'work', flag: false }),
    rec('b4', 'u-b', 10, {}),
  ];
}

/** The deletes, in order, each on what the ones before left; every one matches ≥ 1 record and leaves ≥ 1 of its user. */
export const DELETE_WHERE_STEPS: ReadonlyArray<{ label: string; filter: RecallFilter }> = [
  { label: "u-a's work memories whose flag is not false", filter: { namespaces: ['u-a'], where: parseFilter({ 'metadata.topic': 'work', 'metadata.flag': { $ne: false } }) } },
  { label: 'flag 0 (metadata), not false or ""', filter: { metadata: { flag: 0 } } },
  { label: 'where alone: u-b and kind fact', filter: { where: parseFilter({ namespace: 'u-b', kind: 'fact' }) } },
];

/**
 * Runs `DELETE_WHERE_STEPS` on `coll` (an empty collection of dimension 3 and cosine metric whose
 * adapter pushes down `$eq` and `$ne`) and returns every difference from the reference, in words
 * (empty: all exact). Also asserts that a filter with no part is refused with INVALID_INPUT and
 * deletes nothing.
 */
export async function deleteWhereProblems(coll: MemoryCollection): Promise<string[]> {
  const problems: string[] = [];
  let left = deleteWhereRecords();
  await coll.upsert(left);
  for (const refused of [{}, { metadata: {} }] as RecallFilter[]) {
    const code = await coll.deleteWhere!(refused).then(
      () => 'resolved',
      (e: { code?: string }) => e.code,
    );
    if (code !== 'INVALID_INPUT') problems.push(`deleteWhere(${JSON.stringify(refused)}): ${code}, expected INVALID_INPUT`);
  }
  if ((await coll.count()) !== left.length) problems.push(`a refused deleteWhere changed count to ${await coll.count()}`);
  for (const step of DELETE_WHERE_STEPS) {
    const gone = left.filter((r) => matchesFilter(r, step.filter));
    left = left.filter((r) => !matchesFilter(r, step.filter));
    const at = `${step.label}`;
    const n = await coll.deleteWhere!(step.filter);
    if (n !== gone.length) problems.push(`${at}: deleteWhere returned ${n}, expected ${gone.length}`);
    const got = (await coll.get(gone.map((r) => r.id))).map((r) => r.id);
    if (got.length) problems.push(`${at}: get of the deleted ids returned ${got.join(', ')}`);
    const kept = (await coll.get(left.map((r) => r.id))).map((r) => r.id);
    if (kept.join() !== left.map((r) => r.id).join()) problems.push(`${at}: get of the kept ids returned ${kept.join(', ')}, expected ${left.map((r) => r.id).join(', ')}`);
    const counts: Array<[string, RecallFilter | undefined]> = [
      ['count()', undefined],
      ['count(u-a)', { namespaces: ['u-a'] }],
      ['count(u-b)', { namespaces: ['u-b'] }],
      ['count(same filter)', step.filter],
    ];
    for (const [what, f] of counts) {
      const want = left.filter((r) => matchesFilter(r, f)).length;
      const c = await coll.count(f);
      if (c !== want) problems.push(`${at}: ${what} is ${c}, expected ${want}`);
    }
    for (const r of gone) {
      const hits = await coll.recall({ vector: r.embedding, k: 10, scan: 'exact' });
      if (hits.some((h) => h.id === r.id)) problems.push(`${at}: recall with ${r.id}'s own vector still returns it`);
      if (hits.length !== left.length) problems.push(`${at}: recall (k 10) returned ${hits.length} rows, expected ${left.length}`);
    }
  }
  if ((await coll.deleteWhere!({ namespaces: ['nobody'] })) !== 0) problems.push('deleteWhere of an unknown namespace reported deletions');
  if ((await coll.count()) !== left.length) problems.push(`deleteWhere of an unknown namespace changed count to ${await coll.count()}`);
  return problems;
}
