import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCatalog, loadUserConfig, resolveTarget } from '../src';

/**
 * memory-matrix.yaml over the built-in catalog, without adapter modules (their loading runs
 * through the CLI: packages/runner/test/own-module.test.ts): entries are added or replace the
 * built-in ones of the same name, and errors about them name the user's file and line.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'mm-user-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const config = (yaml: string): string => {
  const f = path.join(dir, `c${n++}`, 'memory-matrix.yaml');
  mkdirSync(path.dirname(f));
  writeFileSync(f, yaml);
  return f;
};
const error = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return `${(err as { code?: string }).code}: ${(err as Error).message}`;
  }
  return '(no error)';
};

test('targets and profiles are added to the built-in catalog; one of a built-in name replaces it, and the catalog says which', () => {
  const f = config(
    [
      'targets:',
      '  pgvector@pglite-pg18-ivf:',
      '    backend: pgvector',
      '    provider: embedded',
      '    engine: pglite-0.5',
      '    index: { type: ivfflat, lists: 10, probes: 3 }',
      'profiles:',
      '  pr-gate:',
      '    targets: [pgvector@pglite-pg18-ivf]',
      '',
    ].join('\n'),
  );
  const cat = loadCatalog(undefined, { config: loadUserConfig(f) });
  expect(resolveTarget(cat, 'pgvector@pglite-pg18-ivf').index).toEqual({ type: 'ivfflat', lists: 10, probes: 3 });
  expect(resolveTarget(cat, 'pgvector@pg17').backend).toBe('pgvector'); // the built-in ones stay
  expect(cat.profiles.get('pr-gate')?.targets).toEqual(['pgvector@pglite-pg18-ivf']);
  expect(cat.config).toEqual({ file: f, adapters: [], replaced: ['profile pr-gate'] });
});

test.each([
  ['an unknown top-level key', 'adaptors: {}\n', /memory-matrix\.yaml:1: adaptors: unknown key "adaptors"/],
  ['an unknown top-level key with a block value (named at its key, not its value)', 'profles:\n  x: {}\n', /memory-matrix\.yaml:1: profles: unknown key "profles"/],
  ['a list instead of a mapping', '- a\n', /memory-matrix\.yaml:1: the config is a list; expected a mapping with adapters, targets and profiles/],
  ['an adapter name that is no driver name', 'adapters:\n  My_Memory: ./x.ts\n', /memory-matrix\.yaml:2: adapters\.My_Memory: an adapter name is a driver name/],
  [
    'a YAML indentation error (the line and column of the item out of line, and the lines there)',
    'profiles:\n  mine:\n    targets: [x]\n   checks: [C01]\n',
    /memory-matrix\.yaml:4:4: All mapping items must start at the same column\n\n {6}targets: \[x\]\n {5}checks: \[C01\]\n {5}\^\n$/,
  ],
])('the top level: %s (USAGE, file:line)', (_name, yaml, why) => {
  expect(error(() => loadUserConfig(config(yaml)))).toMatch(why);
});

test.each([
  [
    'a target key the schema does not know',
    'targets:\n  pgvector@x:\n    backend: pgvector\n    provider: embedded\n    engine: pglite-0.5\n    idnex: { type: none }\n',
    /memory-matrix\.yaml:6: targets\.pgvector@x\.idnex: unknown key "idnex"/,
  ],
  [
    'a nested unknown key with a block value (named at its key)',
    'targets:\n  pgvector@x:\n    backend: pgvector\n    provider: embedded\n    engine: pglite-0.5\n    idnex:\n      type: none\n',
    /memory-matrix\.yaml:6: targets\.pgvector@x\.idnex: unknown key "idnex"/,
  ],
  [
    'a client target over a server that is none',
    'targets:\n  pgvector@y:\n    backend: pgvector\n    server: pgvector@nope\n',
    /memory-matrix\.yaml:4: targets\.pgvector@y\.server: driver pgvector is not a client driver/,
  ],
  ['a profile naming an unknown target', 'profiles:\n  mine:\n    targets: [own@1]\n', /memory-matrix\.yaml:3: profiles\.mine\.targets\.0: profile mine names unknown target own@1/],
  [
    'a profile with target: for targets: (the unknown key, not the missing one)',
    'profiles:\n  mine:\n    target: [pgvector@pglite-pg18]\n',
    /memory-matrix\.yaml:3: profiles\.mine\.target: unknown key "target"; did you mean "targets"\?$/,
  ],
  [
    'a mistyped index setting beside a complete index (was accepted and ignored)',
    'targets:\n  pgvector@z:\n    backend: pgvector\n    provider: embedded\n    engine: pglite-0.5\n    index: { type: hnsw, m: 16, efConstruction: 64, efSearch: 40, efSerch: 4 }\n',
    /memory-matrix\.yaml:6: targets\.pgvector@z\.index\.efSerch: unknown key "efSerch"; did you mean "efSearch"\?$/,
  ],
  [
    'a mistyped index setting in place of a required one (the unknown key, not the missing one)',
    'targets:\n  pgvector@z:\n    backend: pgvector\n    provider: embedded\n    engine: pglite-0.5\n    index: { type: hnsw, m: 16, efConstruction: 64, efSerch: 4 }\n',
    /memory-matrix\.yaml:6: targets\.pgvector@z\.index\.efSerch: unknown key "efSerch"; did you mean "efSearch"\?$/,
  ],
  [
    'a cannotShow entry for a check the catalogue has not',
    'targets:\n  pgvector@w:\n    backend: pgvector\n    provider: embedded\n    engine: pglite-0.5\n    cannotShow: { C99: what C99 cannot show here, measured }\n',
    /memory-matrix\.yaml:6: targets\.pgvector@w\.cannotShow\.C99: a check id of the catalogue, such as C27/,
  ],
])('its targets and profiles, validated with the catalog schema: %s names the user file and line', (_name, yaml, why) => {
  const f = config(yaml);
  const m = error(() => loadCatalog(undefined, { config: loadUserConfig(f) }));
  expect(m).toMatch(/^USAGE: /);
  expect(m).toContain(path.dirname(f));
  expect(m).toMatch(why);
});

test('a built-in catalog error still names the built-in catalog, not the user file', () => {
  const f = config('targets: {}\n');
  const bad = path.join(dir, 'targets.yaml');
  writeFileSync(bad, 'defaults: { index: { type: none } }\ntargets:\n  pgvector@z: { backend: pgvector, provider: embedded, engine: nope }\nprofiles: {}\n');
  expect(error(() => loadCatalog(bad, { config: loadUserConfig(f) }))).toMatch(
    new RegExp(`^USAGE: ${bad.replace(/[.]/g, '\\.')}:3: targets\\.pgvector@z\\.engine: driver pgvector has no embedded engine "nope"`),
  );
});

test.each([
  [
    'a mistyped limit of a target',
    'targets:\n  pgvector@q:\n    backend: pgvector\n    provider: embedded\n    engine: pglite-0.5\n    limits: { loadTimoutMs: 5 }\n',
    /memory-matrix\.yaml:6: targets\.pgvector@q\.limits\.loadTimoutMs: unknown key "loadTimoutMs"; did you mean "loadTimeoutMs"\?$/,
  ],
  ['an unknown key of an adapters entry', 'adapters:\n  own: { module: ./x.ts, limts: {} }\n', /memory-matrix\.yaml:2: adapters\.own\.limts: unknown key "limts"/],
  [
    'a limit that is not a positive integer',
    'adapters:\n  own: { module: ./x.ts, limits: { loadTimeoutMs: -1 } }\n',
    /memory-matrix\.yaml:2: adapters\.own\.limits\.loadTimeoutMs: Number must be greater than 0/,
  ],
])('time limits (issue 35): %s names the user file and line (USAGE)', (_name, yaml, why) => {
  const m = error(() => loadCatalog(undefined, { config: loadUserConfig(config(yaml)) }));
  expect(m).toMatch(/^USAGE: /);
  expect(m).toMatch(why);
});

test('a time limit above 2^31−1 ms (what Node timers hold) is refused at parse, naming the field, the maximum and its source (USAGE)', () => {
  const yaml = 'targets:\n  pgvector@q:\n    backend: pgvector\n    provider: embedded\n    engine: pglite-0.5\n    limits: { loadTimeoutMs: 2147483648 }\n';
  expect(error(() => loadCatalog(undefined, { config: loadUserConfig(config(yaml)) }))).toMatch(
    /^USAGE: \S*memory-matrix\.yaml:6: targets\.pgvector@q\.limits\.loadTimeoutMs: above the maximum, 2147483647 ms \(2\^31−1, ≈ 24\.8 days: the longest delay Node's timers hold\)$/,
  );
});

test('every bad time limit of the file is reported in one error, file:line each (USAGE)', () => {
  const yaml = [
    'adapters:',
    '  own: { module: ./x.ts, limits: { checkTimeoutMs: 0 } }',
    'targets:',
    '  pgvector@q:',
    '    backend: pgvector',
    '    provider: embedded',
    '    engine: pglite-0.5',
    '    start: { setupTimeoutMs: 1.5 }',
    '    limits:',
    '      loadTimeoutMs: 99999999999',
    '      checkTimeoutMs: -3',
    '',
  ].join('\n');
  const m = error(() => loadCatalog(undefined, { config: loadUserConfig(config(yaml)) }));
  expect(m.split('\n').map((l) => l.replace(/^.*memory-matrix\.yaml:/, ''))).toEqual([
    '2: adapters.own.limits.checkTimeoutMs: Number must be greater than 0',
    '8: targets.pgvector@q.start.setupTimeoutMs: Expected integer, received float',
    "10: targets.pgvector@q.limits.loadTimeoutMs: above the maximum, 2147483647 ms (2^31−1, ≈ 24.8 days: the longest delay Node's timers hold)",
    '11: targets.pgvector@q.limits.checkTimeoutMs: Number must be greater than 0',
  ]);
  expect(m).toMatch(/^USAGE: /);
});

test("time limits: a target's own limits; an adapters entry's limits under them for every target of its driver", () => {
  const toy = path.resolve(__dirname, '../../runner/test/fixtures/toy-driver/index.ts');
  const f = config(
    [
      'adapters:',
      `  toy: { module: ${JSON.stringify(toy)}, limits: { loadTimeoutMs: 1800000, checkTimeoutMs: 600000 } }`,
      'targets:',
      '  toy@1: { backend: toy, provider: embedded, engine: toy-1, index: { type: none }, limits: { checkTimeoutMs: 900000 } }',
      '  toy@2: { backend: toy, provider: embedded, engine: toy-1, index: { type: none } }',
      '  pgvector@slow: { backend: pgvector, provider: embedded, engine: pglite-0.5, limits: { setupTimeoutMs: 240000 } }',
      '',
    ].join('\n'),
  );
  const cat = loadCatalog(undefined, { config: loadUserConfig(f) });
  expect(resolveTarget(cat, 'toy@1').limits).toEqual({ loadTimeoutMs: 1_800_000, checkTimeoutMs: 900_000 });
  expect(resolveTarget(cat, 'toy@2').limits).toEqual({ loadTimeoutMs: 1_800_000, checkTimeoutMs: 600_000 });
  expect(resolveTarget(cat, 'pgvector@slow').limits).toEqual({ setupTimeoutMs: 240_000 });
  expect(resolveTarget(cat, 'pgvector@pg17').limits).toBeUndefined();
});
