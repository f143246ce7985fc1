/**
 * Driver discovery (src/discovery.ts) without loading any driver: which packages are found in the
 * workspace and in installed node_modules folders, what a malformed `memoryMatrix` field says, and
 * the package whose main module exports no such driver (loadDriverPackage: USAGE naming the
 * package.json line and the field). The drivers themselves load through the CLI
 * (packages/runner/test/drivers.test.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DRIVER_FIELD, findDriverPackages, loadDriverPackage, nodeModulesDirs, readDriverPackage, workspaceRoot } from '../src';

const REPO = path.resolve(__dirname, '..', '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'mm-discovery-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Write `<dir>/package.json` (and `index.js` when `main` is given); returns `dir`. */
function pkg(dir: string, manifest: Record<string, unknown>, main?: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (main !== undefined) writeFileSync(path.join(dir, 'index.js'), main);
  return dir;
}
const error = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return `${(err as { code?: string }).code}: ${(err as Error).message}`;
  }
  return '(no error)';
};

test('the workspace: every packages/*/package.json with the field, and nothing else (examples/ stays out)', () => {
  expect(workspaceRoot()).toBe(REPO);
  expect(workspaceRoot(path.join(tmp, 'node_modules', 'x'))).toBeUndefined();
  const withField = readdirSync(path.join(REPO, 'packages'))
    .map((d) => path.join(REPO, 'packages', d, 'package.json'))
    .filter((f) => {
      try {
        return (JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>)[DRIVER_FIELD] !== undefined;
      } catch {
        return false; // a folder without a package.json
      }
    });
  const { found, shadowed } = findDriverPackages({ workspace: REPO, searchFrom: [] });
  expect(found.map((p) => p.manifest).sort()).toEqual(withField.sort());
  expect(found.every((p) => p.source === 'workspace')).toBe(true);
  expect(shadowed).toEqual([]);
  // Every adapter folder is a driver package, and the rest of packages/ is not.
  const adapters = readdirSync(path.join(REPO, 'packages')).filter((d) => d.startsWith('adapter-'));
  expect(found.map((p) => path.basename(p.dir)).sort()).toEqual(adapters.sort());
  expect(found.map((p) => p.name)).not.toContain('own-memory-module-example');
});

test('installed: @memory-matrix/* and memory-matrix-driver-* with the field in each node_modules on the way up, the closer copy first', () => {
  const root = path.join(tmp, 'installed');
  const app = path.join(root, 'app');
  pkg(path.join(app, 'node_modules', '@memory-matrix', 'adapter-a'), { name: '@memory-matrix/adapter-a', [DRIVER_FIELD]: { driver: 'aDriver', bundled: true } });
  pkg(path.join(app, 'node_modules', '@memory-matrix', 'spec'), { name: '@memory-matrix/spec' }); // no field: not a driver package
  pkg(path.join(app, 'node_modules', 'memory-matrix-driver-b'), { name: 'memory-matrix-driver-b', [DRIVER_FIELD]: { driver: 'driver' } });
  pkg(path.join(app, 'node_modules', 'other-c'), { name: 'other-c', [DRIVER_FIELD]: { driver: 'driver' } }); // not a name looked at
  pkg(path.join(root, 'node_modules', '@memory-matrix', 'adapter-a'), { name: '@memory-matrix/adapter-a', [DRIVER_FIELD]: { driver: 'aDriver' } }); // farther: shadowed
  symlinkSync(path.join(app, 'node_modules', 'memory-matrix-driver-b'), path.join(root, 'node_modules', 'memory-matrix-driver-b')); // the same folder again
  const from = path.join(app, 'src');
  mkdirSync(from);
  expect(nodeModulesDirs([from, app]).slice(0, 2)).toEqual([path.join(app, 'node_modules'), path.join(root, 'node_modules')]);
  const { found, shadowed } = findDriverPackages({ workspace: undefined, searchFrom: [from] });
  expect(found.map((p) => [p.name, p.exportName, p.bundled, p.source])).toEqual([
    ['@memory-matrix/adapter-a', 'aDriver', true, 'installed'],
    ['memory-matrix-driver-b', 'driver', false, 'installed'],
  ]);
  expect(shadowed).toEqual([
    { name: '@memory-matrix/adapter-a', dir: path.join(root, 'node_modules', '@memory-matrix', 'adapter-a'), usedDir: path.join(app, 'node_modules', '@memory-matrix', 'adapter-a') },
  ]);
});

test('a malformed field: USAGE naming the package.json line and the key', () => {
  const bad = (name: string, field: unknown): string => error(() => readDriverPackage(pkg(path.join(tmp, 'bad', name), { name, version: '1.0.0', [DRIVER_FIELD]: field }), 'installed'));
  const f = (name: string): string => path.join(tmp, 'bad', name, 'package.json');
  expect(bad('s', 'sDriver')).toBe(`USAGE: ${f('s')}:4: memoryMatrix is "sDriver", not an object (a driver package's field: { "driver": "<its driver export>", "bundled": true|false })`);
  expect(bad('n', { driver: 'no-such name' })).toMatch(new RegExp(`^USAGE: ${f('n')}:5: memoryMatrix\\.driver is "no-such name", not the name of an export`));
  expect(bad('m', {})).toMatch(/memoryMatrix\.driver is undefined, not the name of an export/);
  expect(bad('b', { driver: 'x', bundled: 'yes' })).toMatch(new RegExp(`^USAGE: ${f('b')}:6: memoryMatrix\\.bundled is "yes", not true or false`));
  expect(bad('k', { driver: 'x', drvier: 'y' })).toMatch(/memoryMatrix\.drvier is not a key of the field/);
  writeFileSync(path.join(tmp, 'bad', 'k', 'package.json'), '{ "name": ');
  expect(error(() => readDriverPackage(path.join(tmp, 'bad', 'k'), 'installed'))).toMatch(new RegExp(`^USAGE: ${f('k')}: not JSON`));
});

test('a package whose main module does not export the driver its field names: USAGE naming the package.json line and the field', () => {
  const dir = pkg(path.join(tmp, 'noexport'), { name: 'memory-matrix-driver-noexport', main: 'index.js', [DRIVER_FIELD]: { driver: 'myDriver' } }, 'exports.otherDriver = {};\n');
  const p = readDriverPackage(dir, 'installed')!;
  expect(error(() => loadDriverPackage(p))).toBe(
    `USAGE: ${path.join(dir, 'package.json')}:5: memoryMatrix.driver "myDriver": memory-matrix-driver-noexport's main module ${path.join(dir, 'index.js')} exports no myDriver (it exports otherDriver)`,
  );
  // An export that is there but is no driver: the contract check names the member.
  const other = pkg(path.join(tmp, 'notdriver'), { name: 'memory-matrix-driver-notdriver', main: 'index.js', [DRIVER_FIELD]: { driver: 'myDriver' } }, 'exports.myDriver = { name: "mine" };\n');
  expect(error(() => loadDriverPackage(readDriverPackage(other, 'installed')!))).toBe(
    `USAGE: ${path.join(other, 'package.json')}:5: memoryMatrix.driver "myDriver": driver mine: description is missing (a string)`,
  );
});
