/**
 * The run's time zone (src/time-zone.ts) and the selftest mutant that only a zone other than UTC
 * shows (src/selftest/mutants/local-time.ts), on the toy driver's in-memory store, in a child
 * process per zone (fixtures/local-time-probe.ts).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { zoneLine } from '../src/report/console';
import { selectMutants } from '../src/selftest/mutants';
import { MATRIX_TIME_ZONE, runTimeZone, useMatrixTimeZone } from '../src/time-zone';
import { TOY_CAPABILITIES } from './fixtures/toy-driver';

describe('useMatrixTimeZone', () => {
  test('sets TZ to Australia/Adelaide by default, to MM_TIME_ZONE when given; both ICU and libc know it', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(useMatrixTimeZone(env)).toBe(MATRIX_TIME_ZONE);
    expect(env.TZ).toBe('Australia/Adelaide');
    const utc: NodeJS.ProcessEnv = { MM_TIME_ZONE: 'UTC' };
    expect(useMatrixTimeZone(utc)).toBe('UTC');
    expect(utc.TZ).toBe('UTC');
  });

  test('a zone ICU does not know, or without a zone file, is USAGE naming MM_TIME_ZONE; TZ untouched', () => {
    const env: NodeJS.ProcessEnv = { MM_TIME_ZONE: 'Nowhere/Town' };
    expect(() => useMatrixTimeZone(env)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('MM_TIME_ZONE="Nowhere/Town"') }));
    expect(env.TZ).toBeUndefined();
    const noFiles: NodeJS.ProcessEnv = { TZDIR: '/nonexistent-zoneinfo' };
    expect(() => useMatrixTimeZone(noFiles)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('no zone file /nonexistent-zoneinfo/Australia/Adelaide') }));
    expect(noFiles.TZ).toBeUndefined();
  });

  test("a zone ICU knows under another spelling (case: utc, australia/adelaide) gets ICU's name as a did-you-mean, not only tzdata advice; a typo the closest names", () => {
    for (const [given, want] of [
      ['utc', 'UTC'],
      ['australia/adelaide', 'Australia/Adelaide'],
    ]) {
      const env: NodeJS.ProcessEnv = { MM_TIME_ZONE: given };
      expect(() => useMatrixTimeZone(env)).toThrow(
        expect.objectContaining({
          code: 'USAGE',
          message: expect.stringContaining(
            `MM_TIME_ZONE="${given}": the C library has no zone file /usr/share/zoneinfo/${given} (SQLite's localtime would run in UTC); did you mean MM_TIME_ZONE=${want}? (the C library's zone names are case-sensitive); else install the tzdata package`,
          ),
        }),
      );
      expect(env.TZ).toBeUndefined();
    }
    expect(() => useMatrixTimeZone({ MM_TIME_ZONE: 'Australia/Adelaid' })).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.stringContaining("not a time zone Node's ICU knows; did you mean MM_TIME_ZONE=Australia/Adelaide? give an IANA name") }),
    );
    // Without a zone file for either spelling, tzdata advice only.
    expect(() => useMatrixTimeZone({ MM_TIME_ZONE: 'australia/adelaide', TZDIR: '/nonexistent-zoneinfo' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('did you mean') }));
  });

  test('the report line names the zone and its offsets', () => {
    expect(zoneLine({ name: 'Australia/Adelaide', offsets: ['+09:30', '+10:30'] })).toMatch(
      /^time zone Australia\/Adelaide \(UTC\+09:30, \+10:30\): the runner, its child cells, store processes and local servers ran in it/,
    );
  });

  test('runTimeZone lists the offsets of the year, ascending: a non-whole-hour offset and its DST', () => {
    const at = new Date('2024-05-01T00:00:00.000Z');
    expect(runTimeZone('Australia/Adelaide', at)).toEqual({ name: 'Australia/Adelaide', offsets: ['+09:30', '+10:30'] });
    expect(runTimeZone('America/St_Johns', at)).toEqual({ name: 'America/St_Johns', offsets: ['-03:30', '-02:30'] });
    expect(runTimeZone('UTC', at)).toEqual({ name: 'UTC', offsets: ['+00:00'] });
  });
});

describe('local-time-created-at', () => {
  /** The probe's answer in a child process whose zone is `tz` (fixtures/local-time-probe.ts). */
  const probe = (tz: string): { shifted: string[]; hits: Array<{ id: string; score: number }>; stored: string[] } =>
    JSON.parse(
      execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(__dirname, 'fixtures', 'local-time-probe.ts')], { env: { ...process.env, TZ: tz }, encoding: 'utf8' }),
    );
  const written = ['2024-05-01T09:30:00.000Z', '2024-05-01T09:30:00.100Z'];

  test('in Australia/Adelaide: ages from the UTC components read as local time (+09:30, +10:30 in DST); what is stored is untouched', () => {
    const p = probe('Australia/Adelaide');
    expect(p.shifted).toEqual(['2024-05-01T00:00:00.450750Z', '2023-12-31T23:00:00.000Z']);
    // ages 9.5 h + 200 ms and 9.5 h + 100 ms: 1 / (1 + age / 100 ms)
    const h = 9.5 * 3_600_000;
    expect(p.hits.map((x) => x.id)).toEqual(['a', 'b']);
    expect(p.hits[0]!.score).toBeCloseTo(1 / (1 + (h + 200) / 100), 12);
    expect(p.hits[1]!.score).toBeCloseTo(0.6 / (1 + (h + 100) / 100), 12);
    expect(p.stored).toEqual(written);
  });

  test('in UTC it is the right decayed recall (what a UTC run cannot see)', () => {
    const p = probe('UTC');
    expect(p.shifted).toEqual(['2024-05-01T09:30:00.450750Z', '2024-01-01T09:30:00.000Z']);
    // a: 1 / (1 + 2) = 0.333…, b: 0.6 / (1 + 1) = 0.3
    expect(p.hits.map((x) => x.id)).toEqual(['a', 'b']);
    expect(p.hits[0]!.score).toBeCloseTo(1 / 3, 6);
    expect(p.hits[1]!.score).toBeCloseTo(0.3, 6);
    expect(p.stored).toEqual(written);
  });

  test('needs time decay', () => {
    expect(selectMutants(['local-time-created-at'])[0]!.requires(TOY_CAPABILITIES)).toBe('capability: timeDecay');
  });
});
