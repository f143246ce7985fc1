import { matchesFilter } from '../src/filter';

const rec = { namespace: 'user-1', kind: 'fact' as const, metadata: { n: 0, s: '', b: false, z: null, lang: 'en' } };

describe('matchesFilter', () => {
  test('no filter / empty filter matches', () => {
    expect(matchesFilter(rec)).toBe(true);
    expect(matchesFilter(rec, {})).toBe(true);
    expect(matchesFilter(rec, { metadata: {} })).toBe(true);
  });
  test('namespaces IN', () => {
    expect(matchesFilter(rec, { namespaces: ['user-2', 'user-1'] })).toBe(true);
    expect(matchesFilter(rec, { namespaces: ['user-2'] })).toBe(false);
    expect(matchesFilter(rec, { namespaces: [] })).toBe(false);
  });
  test('kinds IN', () => {
    expect(matchesFilter(rec, { kinds: ['fact'] })).toBe(true);
    expect(matchesFilter(rec, { kinds: ['episode', 'summary'] })).toBe(false);
  });
  test('metadata strict equality including type: 0 ≠ false ≠ "" ≠ null', () => {
    expect(matchesFilter(rec, { metadata: { n: 0 } })).toBe(true);
    expect(matchesFilter(rec, { metadata: { n: false } })).toBe(false);
    expect(matchesFilter(rec, { metadata: { n: '' } })).toBe(false);
    expect(matchesFilter(rec, { metadata: { n: '0' } })).toBe(false);
    expect(matchesFilter(rec, { metadata: { b: false } })).toBe(true);
    expect(matchesFilter(rec, { metadata: { b: 0 } })).toBe(false);
    expect(matchesFilter(rec, { metadata: { s: '' } })).toBe(true);
    expect(matchesFilter(rec, { metadata: { s: null } })).toBe(false);
    expect(matchesFilter(rec, { metadata: { z: null } })).toBe(true);
    expect(matchesFilter(rec, { metadata: { z: 0 } })).toBe(false);
  });
  test('a missing key never matches, not even null', () => {
    expect(matchesFilter(rec, { metadata: { missing: null } })).toBe(false);
    expect(matchesFilter(rec, { metadata: { toString: null } })).toBe(false);
  });
  test('all parts must hold (AND)', () => {
    expect(matchesFilter(rec, { namespaces: ['user-1'], kinds: ['fact'], metadata: { lang: 'en', n: 0 } })).toBe(true);
    expect(matchesFilter(rec, { namespaces: ['user-1'], kinds: ['fact'], metadata: { lang: 'de' } })).toBe(false);
    expect(matchesFilter(rec, { namespaces: ['user-1'], kinds: ['summary'] })).toBe(false);
  });
});
