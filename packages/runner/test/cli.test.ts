/**
 * The CLI as a user meets it: exit codes (0 pass, 1 a check failed, 2 could not run), messages
 * that name the thing and the place, and report.json written in every case.
 */
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cli, copyGolden, recordCase, rewriteWithManifest } from './cli-helpers';

describe('memory-matrix CLI: could not run (exit 2)', () => {
  test('unknown target names the target and lists the known ones', () => {
    const r = cli(['--backend', 'pgvector@pg99']);
    recordCase('unknown target `--backend pgvector@pg99`', r);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('unknown target "pgvector@pg99"');
    expect(r.stdout).toContain('pgvector@pglite-pg18');
    expect(r.report?.error?.code).toBe('UNKNOWN_TARGET');
    expect(r.report?.cells).toEqual([]);
  });

  test('malformed flags: unknown option and a bad shard', () => {
    const a = cli(['--bogus']);
    recordCase('unknown option `--bogus`', a);
    expect(a.status).toBe(2);
    expect(a.stderr).toContain("unknown option '--bogus'");
    const b = cli(['--shard', '3/2']);
    recordCase('bad shard `--shard 3/2`', b);
    expect(b.status).toBe(2);
    expect(b.stdout).toContain('--shard "3/2"');
  });

  test('a corrupted vector file fails the sha256 check before any backend starts', () => {
    const dir = copyGolden();
    const f32 = path.join(dir, 'memories.f32');
    const buf = readFileSync(f32);
    buf[4096] ^= 0xff;
    writeFileSync(f32, buf);
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--dataset', dir]);
    recordCase('sha256 mismatch (one byte of memories.f32 flipped)', r);
    expect(r.status).toBe(2);
    expect(r.report?.error?.code).toBe('GOLDEN_CHECKSUM');
    expect(r.report?.error?.message).toContain('memories.f32');
    expect(r.report?.cells).toEqual([]);
    expect(r.stdout).not.toContain('starting');
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  test('a memory with the wrong dimension names the file and line', () => {
    const dir = copyGolden();
    const buf = readFileSync(path.join(dir, 'memories.f32'));
    rewriteWithManifest(dir, 'memories.f32', buf.subarray(0, buf.length - 4));
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--dataset', dir]);
    recordCase('wrong dimension (memories.f32 one float short, manifest fixed)', r);
    expect(r.status).toBe(2);
    expect(r.report?.error?.code).toBe('GOLDEN_INVALID');
    expect(r.report?.error?.message).toMatch(/memories\.(f32|jsonl).*:\d+/);
    expect(r.report?.cells).toEqual([]);
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  test('a missing expectation is an error unless --update-golden re-records it', () => {
    const dir = copyGolden();
    rmSync(path.join(dir, 'expected'), { recursive: true });
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--dataset', dir]);
    recordCase('expectation missing (expected/ removed)', r);
    expect(r.status).toBe(2);
    expect(r.report?.error?.code).toBe('GOLDEN_MISSING');
    expect(r.report?.error?.message).toContain('--update-golden');
    const u = cli(['--backend', 'pgvector@pglite-pg18', '--dataset', dir, '--update-golden', '--check', 'C06']);
    expect(u.status).toBe(0);
    expect(readFileSync(path.join(dir, 'expected', 'oracle.jsonl'), 'utf8')).toBe(
      readFileSync(path.join(__dirname, '..', '..', '..', 'golden-data', 'agent-memories', 'expected', 'oracle.jsonl'), 'utf8'),
    );
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });
});

describe('memory-matrix CLI: a check fails (exit 1)', () => {
  test('one changed score in the committed expectation names query, id, rank, expected and actual', () => {
    const dir = copyGolden();
    const file = path.join(dir, 'expected', 'oracle.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const entry = JSON.parse(lines[2]) as { query: string; hits: Array<[string, number]> };
    const [id, score] = entry.hits[0];
    entry.hits[0] = [id, score + 0.001];
    lines[2] = JSON.stringify(entry);
    writeFileSync(file, lines.join('\n'));
    const r = cli(['--backend', 'pgvector@pglite-pg18', '--dataset', dir, '--check', 'C03']);
    expect(r.status).toBe(1);
    const c03 = r.report!.cells[0].checks.find((c) => c.id === 'C03')!;
    expect(c03.status).toBe('failed');
    const f = c03.failures.find((x) => x.queryId === entry.query && x.id === id)!;
    expect(f).toBeDefined();
    expect(f.rank).toBe(1);
    expect(f.expected).toBeCloseTo(score + 0.001, 9);
    expect(f.actual).toBeCloseTo(score, 5);
    expect(f.message).toContain(entry.query);
    expect(r.stdout).toContain(`${entry.query}`);
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });
});
