/**
 * C24's DST pass finds the UTC-offset change of the process's time zone (`offsetChangeIn`): real
 * zones from the IANA database that Node ships, each in a process of its own (the zone is fixed
 * when a process starts: TZ in its environment).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const SCENARIO = path.join(__dirname, '..', 'src', 'checks', 'c24-scenario.ts');

function changeIn(zone: string, year: number): string {
  const code = `const s=require(${JSON.stringify(SCENARIO)});const i=s.offsetChangeIn(${year});process.stdout.write(i?new Date(i.ms).toISOString()+' '+new Date(i.ms-1).getTimezoneOffset()+' '+new Date(i.ms).getTimezoneOffset():'none')`;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', code], { env: { ...process.env, TZ: zone }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

test.each([
  ['Australia/Adelaide', '2024-04-06T16:30:00.000Z -630 -570'], // 03:00 ACDT → 02:00 ACST (UTC+10:30 → +09:30)
  ['America/New_York', '2024-03-10T07:00:00.000Z 300 240'], // 02:00 EST → 03:00 EDT
  ['Europe/London', '2024-03-31T01:00:00.000Z 0 -60'],
  ['UTC', 'none'],
  ['Asia/Kolkata', 'none'], // UTC+05:30 all year
])(
  '%s: the first UTC-offset change of 2024 to the millisecond, with the offsets either side of it',
  (zone, expected) => {
    expect(changeIn(zone, 2024)).toBe(expected);
  },
  60_000,
);
