/**
 * `sample --out`: what --overwrite may replace (a dataset folder only), and the staged write that
 * leaves nothing half-written. Plain file-system tests, no store.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkSampleOut, writeStaged } from '../src/sample/output';

describe('sample --out', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-sample-out-'));

  test('a new path is fine; an existing one needs --overwrite', () => {
    expect(checkSampleOut(path.join(tmp, 'new'), false)).toBe(path.join(tmp, 'new'));
    const ds = path.join(tmp, 'ds');
    mkdirSync(ds);
    writeFileSync(path.join(ds, 'manifest.json'), '{}');
    writeFileSync(path.join(ds, 'sample-provenance.json'), JSON.stringify({ kind: 'memory-matrix-sample' }));
    expect(() => checkSampleOut(ds, false)).toThrow(/exists; pass --overwrite/);
    expect(checkSampleOut(ds, true, tmp)).toBe(ds);
  });

  test('--overwrite never replaces a file, a folder that is not a dataset, or the working directory', () => {
    const file = path.join(tmp, 'notes.txt');
    writeFileSync(file, 'keep me');
    expect(() => checkSampleOut(file, true)).toThrow(/not a dataset folder made by/);
    const repo = path.join(tmp, 'repo');
    mkdirSync(path.join(repo, 'sub'), { recursive: true });
    expect(() => checkSampleOut(repo, true)).toThrow(/not a dataset folder made by/);
    writeFileSync(path.join(repo, 'manifest.json'), '{"name":"My App","manifest_version":3}');
    expect(() => checkSampleOut(repo, true)).toThrow(/not a dataset folder made by/); // a web app's manifest is not enough
    writeFileSync(path.join(repo, 'sample-provenance.json'), JSON.stringify({ kind: 'memory-matrix-sample' }));
    expect(() => checkSampleOut(repo, true, path.join(repo, 'sub'))).toThrow(/holds the working directory/);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
  });

  test('a failing fill leaves the old dataset untouched and no staging folder', async () => {
    const ds = path.join(tmp, 'staged');
    mkdirSync(ds);
    writeFileSync(path.join(ds, 'manifest.json'), 'old');
    await expect(
      writeStaged(ds, (staging) => {
        mkdirSync(staging);
        writeFileSync(path.join(staging, 'manifest.json'), 'half');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(readFileSync(path.join(ds, 'manifest.json'), 'utf8')).toBe('old');
    expect(readdirSync(tmp).filter((n) => n.includes('staging'))).toEqual([]);
    await writeStaged(ds, (staging) => {
      mkdirSync(staging);
      writeFileSync(path.join(staging, 'manifest.json'), 'new');
    });
    expect(readFileSync(path.join(ds, 'manifest.json'), 'utf8')).toBe('new');
    expect(existsSync(ds)).toBe(true);
    expect(readdirSync(tmp).filter((n) => n.includes('staging'))).toEqual([]);
  });
});
