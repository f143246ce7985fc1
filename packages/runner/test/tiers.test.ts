/**
 * Check tiers of profiles (`checks` / `excludeChecks` in matrix/targets.yaml) and a parallel run
 * whose report does not depend on scheduling: real embedded targets (PGlite, SQLite) through the
 * real CLI, no Docker needed.
 */
import { CHECKS } from '@memory-matrix/spec';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalog } from '@memory-matrix/targets';
import { checkTier } from '../src/select';
import { catalogEditor, cli, REPO, type CliResult } from './cli-helpers';

const CATALOG = path.join(REPO, 'matrix', 'targets.yaml');
const catalogWith = catalogEditor('mm-tiers-');
const PR_GATE_LINE = 'excludeChecks: [C15, C16, C19, C23, C31]';

describe('profile check tiers', () => {
  test('pr-gate leaves durability, upgrade, eviction and faults to release; release and default run every check', () => {
    const catalog = loadCatalog(CATALOG);
    const gate = checkTier(catalog, 'pr-gate');
    expect([...gate.skip.keys()]).toEqual(['C15', 'C16', 'C19', 'C23', 'C31']);
    expect(new Set(gate.skip.values())).toEqual(new Set(['profile pr-gate: runs in release']));
    expect(gate.why).toContain('C15, C16, C19, C23, C31 left to release');
    for (const p of ['release', 'default']) expect(checkTier(catalog, p).skip.size).toBe(0);
    expect(checkTier(catalog, undefined).skip.size).toBe(0); // --backend without --profile: every check
    expect(() => checkTier(catalog, 'nope')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('unknown profile "nope"') }));
  });

  test('an inclusion list takes ids or names; the checks it leaves out are skipped naming the profile', () => {
    const f = catalogWith('include.yaml', (y) => y.replace(`${PR_GATE_LINE}\n    excludedRunIn: release`, 'checks: [C01, topk-exact, c05]'));
    const tier = checkTier(loadCatalog(f), 'pr-gate');
    expect(tier.skip.has('C01') || tier.skip.has('C03') || tier.skip.has('C05')).toBe(false);
    expect(tier.skip.get('C02')).toBe('profile pr-gate: not in its checks');
    expect(tier.skip.size).toBe(CHECKS.length - 3); // every check but the three listed
  });

  test('an unknown check id in a profile: USAGE naming file:line and the id (exit 2 from the CLI)', () => {
    const f = catalogWith('bad-id.yaml', (y) => y.replace(PR_GATE_LINE, 'excludeChecks: [C15, C61, C19, C23, C31]'));
    const line =
      readFileSync(f, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('C61')) + 1;
    expect(() => loadCatalog(f)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(`${f}:${line}: profiles.pr-gate.excludeChecks.1: unknown check "C61"`) }));
    const r = cli(['--backend', 'sqlite@3.53-vec0.1.9'], { env: { MM_CATALOG: f } });
    expect(r.status).toBe(2);
    expect(r.report?.error?.message).toContain(`${f}:${line}:`);
    expect(r.report?.error?.message).toContain('"C61"');
    expect(r.report?.cells).toEqual([]);
  });

  test('checks and excludeChecks together, or excludedRunIn naming no profile: USAGE with file:line', () => {
    const both = catalogWith('both.yaml', (y) => y.replace(PR_GATE_LINE, `${PR_GATE_LINE}\n    checks: [C01]`));
    expect(() => loadCatalog(both)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/both\.yaml:\d+: profiles\.pr-gate\.excludeChecks: give either checks/) }));
    const runIn = catalogWith('run-in.yaml', (y) => y.replace('excludedRunIn: release', 'excludedRunIn: relase'));
    expect(() => loadCatalog(runIn)).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/run-in\.yaml:\d+: profiles\.pr-gate\.excludedRunIn: unknown profile "relase"/) }),
    );
    const nowhere = catalogWith('nowhere.yaml', (y) =>
      y.replace('excludedRunIn: release', 'excludedRunIn: embedded').replace('description: In-process targets only (no Docker needed).', `$&\n    ${PR_GATE_LINE}`),
    );
    expect(() => loadCatalog(nowhere)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('profile embedded does not run C15, C16, C19, C23, C31 either') }));
  });

  test('a misspelt profile key (excludeCheck): USAGE with file:line, never a profile that silently runs every check', () => {
    const f = catalogWith('typo-key.yaml', (y) => y.replace(PR_GATE_LINE, 'excludeCheck: [C15, C16, C19, C23, C31]'));
    expect(() => loadCatalog(f)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/typo-key\.yaml:\d+: profiles\.pr-gate\.excludeCheck: unknown key "excludeCheck"/) }));
  });

  test('an empty or non-mapping catalog: USAGE naming the file and line 1, and an unknown key named once', () => {
    expect(() => loadCatalog(catalogWith('empty.yaml', () => ''))).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/empty\.yaml:1: the catalog is empty; expected a mapping with defaults, targets and profiles$/) }),
    );
    expect(() => loadCatalog(catalogWith('list.yaml', () => '- a\n'))).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('list.yaml:1: the catalog is a list;') }));
    const f = catalogWith('typo-once.yaml', (y) => y.replace(PR_GATE_LINE, `${PR_GATE_LINE}\n    excludeCheck: [C15]`));
    expect(() => loadCatalog(f)).toThrow(expect.objectContaining({ message: expect.stringMatching(/profiles\.pr-gate\.excludeCheck: unknown key "excludeCheck"; did you mean "excludeChecks"\?$/) }));
  });

  test('--check naming only checks the tier leaves out: exit 2 before any backend starts (a run that checks nothing is not a pass)', () => {
    const r = cli(['--profile', 'pr-gate', '--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C15']);
    expect(r.status).toBe(2);
    expect(r.report?.error).toMatchObject({ code: 'USAGE', message: expect.stringContaining('every selected check is left out by the check tier (profile pr-gate: runs in release)') });
    expect(r.report?.cells).toEqual([]);
  });
});

describe('a parallel run: same report as a sequential one, in catalog order', () => {
  // sqlite (embedded, first) and chroma@1.0 (a local process, no Docker): with --parallel 2 and
  // MM_EMBEDDED_INPROCESS=1 the embedded cell runs alone after the others, so chroma finishes first;
  // by default it runs in a child process beside chroma. The report keeps --backend order.
  const args = ['--profile', 'pr-gate', '--backend', 'sqlite@3.53-vec0.1.9', '--backend', 'chroma@1.0', '--check', 'C15,C11,C01,C25'];
  /** What must not depend on scheduling: cells in order, checks in order with verdicts and skip reasons. */
  const shape = (r: CliResult) => r.report!.cells.map((c) => ({ target: c.target, checks: c.checks.map((k) => [k.id, k.status, k.skipReason ?? '']) }));
  let seq: CliResult;
  let par: CliResult;
  let child: CliResult;
  beforeAll(() => {
    seq = cli([...args, '--parallel', '1']);
    par = cli([...args, '--parallel', '2'], { env: { MM_EMBEDDED_INPROCESS: '1' } });
    child = cli([...args, '--parallel', '2']);
  }, 720_000);

  test('both runs pass; report.json cells in --backend order, checks sorted, identical verdicts', () => {
    for (const r of [seq, par, child]) expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(par.stdout).toContain('cells at once: 2 (--parallel; embedded cells in this process, alone, after the others)');
    expect(child.stdout).toContain('cells at once: 2 (--parallel; embedded cells each in a child process)');
    expect(shape(par)).toEqual(shape(seq));
    expect(shape(child)).toEqual(shape(seq));
    expect(shape(par).map((c) => c.target)).toEqual(['sqlite@3.53-vec0.1.9', 'chroma@1.0']);
    const done = (r: CliResult, target: string) => r.stderr.lastIndexOf(`${target} × agent-memories › C25`);
    expect(done(par, 'chroma@1.0')).toBeLessThan(done(par, 'sqlite@3.53-vec0.1.9')); // scheduled otherwise than reported
    expect(done(seq, 'sqlite@3.53-vec0.1.9')).toBeLessThan(done(seq, 'chroma@1.0'));
    for (const c of shape(par)) expect(c.checks.map(([id]) => id)).toEqual(['C01', 'C11', 'C15', 'C25']);
  });

  test('--profile with --backend: the profile picks the tier, a check it leaves out is skipped naming it', () => {
    expect(par.report!.profile).toBe('pr-gate');
    expect(par.stdout).toContain('checks of profile pr-gate: C15, C16, C19, C23, C31 left to release');
    for (const c of par.report!.cells) expect(c.checks.find((k) => k.id === 'C15')).toMatchObject({ status: 'skipped', skipReason: 'profile pr-gate: runs in release' });
  });

  test('every output line of a concurrent run names its target (no bare lines between the header and the table)', () => {
    for (const r of [par, child]) {
      const lines = r.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('(node:') && !l.includes('--trace-warnings'));
      for (const l of lines) expect(l).toMatch(/(chroma@1\.0|sqlite@3\.53-vec0\.1\.9)/);
    }
  });
});
