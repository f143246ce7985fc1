/** `bench` without --backend times the catalog's `bench` profile; a catalog without one is a USAGE error naming the file. No backend is started. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { loadCatalog } from '@memory-matrix/targets';
import { benchDefaults, BENCH_PROFILE } from '../src/commands/bench';
import { parseSections } from '../src/commands/bench-sections';
import { REPO } from './cli-helpers';

describe('bench default targets', () => {
  const yamlText = readFileSync(path.join(REPO, 'matrix', 'targets.yaml'), 'utf8');

  test('are the bench profile of matrix/targets.yaml', () => {
    const profiles = (parse(yamlText) as { profiles: Record<string, { targets: string[] }> }).profiles;
    expect(profiles[BENCH_PROFILE]!.targets.length).toBeGreaterThan(0);
    expect(benchDefaults(loadCatalog())).toEqual(profiles[BENCH_PROFILE]!.targets);
  });

  test('a catalog without a bench profile: USAGE naming the file and the way out', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mm-bench-')), 'targets.yaml');
    const without = yamlText.replace(/^ {2}bench:\n(?: {4}.*\n)+/m, '');
    expect(without).not.toMatch(/^ {2}bench:/m);
    writeFileSync(file, without);
    let err: unknown;
    try {
      benchDefaults(loadCatalog(file));
    } catch (e) {
      err = e;
    }
    expect((err as { code?: string }).code).toBe('USAGE');
    expect((err as Error).message).toBe(`${file}: no profile "bench" (the targets bench times by default); give --backend or add profiles.bench`);
  });
});

describe('bench sections', () => {
  test('none named: every section but profiles (whole profile runs are asked for by name)', () => {
    expect(parseSections([])).toEqual(['phases', 'load', 'oracle', 'gate', 'scale']);
    expect(parseSections(['profiles', 'gate'])).toEqual(['gate', 'profiles']);
  });

  test('an unknown section is USAGE naming it and the known ones', () => {
    expect(() => parseSections(['profile'])).toThrow(/--section: unknown section "profile"; known: phases, load, oracle, gate, scale, profiles/);
  });
});
