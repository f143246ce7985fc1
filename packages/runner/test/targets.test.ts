import { loadCatalog } from '@memory-matrix/targets';
import { targetRows, targetsCommand } from '../src/commands/targets';

describe('targets (what --backend takes)', () => {
  const catalog = loadCatalog();

  test('every catalog target, in catalog order, with provider, what it runs and its profiles', () => {
    const rows = targetRows(catalog);
    expect(rows.map((r) => r.target)).toEqual([...catalog.targets.keys()]);
    const pg17 = rows.find((r) => r.target === 'pgvector@pg17')!;
    expect(pg17.provider).toBe('container');
    expect(pg17.runs).toMatch(/^pgvector\/pgvector:.*; offline: memory-matrix\/pgvector:pg17-/);
    expect(pg17.profiles).toEqual(expect.arrayContaining(['default', 'pr-gate']));
    expect(rows.find((r) => r.target === 'langchain-pgvector@pg17')!.runs).toBe('client over pgvector@pg17');
    expect(rows.find((r) => r.target === 'sqlite@3.53-vec0.1.9')!.provider).toBe('embedded');
  });

  test('--profile: its targets and fallbackTargets; a fallback-only one is starred', () => {
    const rows = targetRows(catalog, 'pr-gate');
    const p = catalog.profiles.get('pr-gate')!;
    expect(new Set(rows.map((r) => r.target))).toEqual(new Set([...p.targets, ...(p.fallbackTargets ?? [])]));
    const fallbackOnly = (p.fallbackTargets ?? []).filter((t) => !p.targets.includes(t));
    for (const t of fallbackOnly) expect(rows.find((r) => r.target === t)!.profiles).toContain('pr-gate*');
  });

  test('an unknown profile is USAGE naming the known ones', () => {
    expect(() => targetRows(catalog, 'nope')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/unknown profile "nope"; known profiles: default/) }));
  });

  test('targets whose adapter is not installed: only those of the profile asked for', () => {
    const lines: string[] = [];
    const without = {
      ...catalog,
      unavailable: new Map([
        ['sqlite@3.53-vec0.1.9', 'why sqlite'],
        ['lancedb@0.37', 'why lancedb'],
      ]),
    };
    targetsCommand(without, (l) => lines.push(l), 'selftest');
    expect(lines.filter((l) => l.startsWith('not installed:'))).toEqual(['not installed: sqlite@3.53-vec0.1.9: why sqlite']);
    lines.length = 0;
    targetsCommand(without, (l) => lines.push(l));
    expect(lines.filter((l) => l.startsWith('not installed:'))).toHaveLength(2);
  });

  test('prints a table and a count', () => {
    const lines: string[] = [];
    expect(targetsCommand(catalog, (l) => lines.push(l), 'embedded')).toBe(0);
    expect(lines.join('\n')).toContain('lancedb@0.37');
    expect(lines.join('\n')).toMatch(/\d+ target\(s\) in profile embedded/);
  });
});
