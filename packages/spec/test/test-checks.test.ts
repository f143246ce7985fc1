import { CHECKS, hasCode, TEST_SUITE_CHECK_IDS, testSuiteChecks } from '../src';

/** testSuiteChecks: which checks the jest conformance suites register (MM_CHECKS, the env twin of --check). */
describe('testSuiteChecks (MM_CHECKS)', () => {
  test('unset or empty: the default subset, every id a known check, in catalogue order', () => {
    for (const env of [{}, { MM_CHECKS: '' }, { MM_CHECKS: '  ' }]) {
      expect(testSuiteChecks(env).map((c) => c.id)).toEqual(CHECKS.map((c) => c.id).filter((id) => TEST_SUITE_CHECK_IDS.includes(id)));
    }
    expect(testSuiteChecks({})).toHaveLength(TEST_SUITE_CHECK_IDS.length);
  });
  test('"all" (any case): every check', () => {
    expect(testSuiteChecks({ MM_CHECKS: 'all' })).toEqual([...CHECKS]);
    expect(testSuiteChecks({ MM_CHECKS: 'ALL' })).toEqual([...CHECKS]);
  });
  test('a list of ids and names, in catalogue order', () => {
    expect(testSuiteChecks({ MM_CHECKS: 'deterministic-ties, c02,C07' }).map((c) => c.id)).toEqual(['C02', 'C07']);
  });
  test('an unknown entry is INVALID_INPUT naming MM_CHECKS and the entry', () => {
    let err: unknown;
    try {
      testSuiteChecks({ MM_CHECKS: 'C03,C99' });
    } catch (e) {
      err = e;
    }
    expect(hasCode(err, 'INVALID_INPUT')).toBe(true);
    expect((err as Error).message).toMatch(/^MM_CHECKS: no check "C99" \(known: C01, /);
  });
});
