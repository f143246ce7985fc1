/**
 * What a run says about where its targets came from, in every report: the catalog file `MM_CATALOG`
 * named in place of matrix/targets.yaml (report.json `catalog`, the console, report.md), and the
 * targets of a profile left out because no Docker engine answers (its `fallbackTargets`;
 * report.json `skippedTargets`, `skipped target …` on the console and in report.md). A real run of
 * C01 on sqlite (embedded); `DOCKER_HOST` points at no socket, so no engine answers here either way.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogEditor, cli } from './cli-helpers';

const catalogWith = catalogEditor('mm-catalog-report-');
const PROFILES = '  embedded:\n    description: In-process targets only';
const file = catalogWith('own-targets.yaml', (y) =>
  y.replace(
    PROFILES,
    `  tiny:\n    description: One container target, sqlite without Docker.\n    targets: [pgvector@pg17, sqlite@3.53-vec0.1.9]\n    fallbackTargets: [sqlite@3.53-vec0.1.9]\n${PROFILES}`,
  ),
);

test('MM_CATALOG is named in report.json, on the console and in report.md; the container target the profile left out without Docker too', () => {
  const r = cli(['--profile', 'tiny', '--check', 'C01'], { env: { MM_CATALOG: file, DOCKER_HOST: 'unix:///nonexistent/mm-no-docker.sock' } });
  expect(r.stderr).not.toMatch(/INTERNAL/);
  expect(r.status).toBe(0);
  const report = r.report!;
  expect(report.cells.map((c) => c.target)).toEqual(['sqlite@3.53-vec0.1.9']);
  expect(report.catalog).toEqual({ file });
  const reason = 'no Docker engine answers: profile tiny runs its fallbackTargets (sqlite@3.53-vec0.1.9) instead of its targets';
  expect(report.skippedTargets).toEqual([{ target: 'pgvector@pg17', reason }]);
  // The older keys keep their order; the new one comes after them.
  const keys = Object.keys(report);
  expect(keys.indexOf('catalog')).toBeGreaterThan(keys.indexOf('exitCode'));
  const line = `target catalog ${file} (MM_CATALOG, in place of matrix/targets.yaml)`;
  expect(r.stdout).toContain(line);
  expect(r.stdout).toContain(`skipped target pgvector@pg17: ${reason}`);
  const md = readFileSync(path.join(r.reportDir, 'report.md'), 'utf8');
  expect(md).toContain(`${line}.`);
  expect(md).toContain(`- skipped target **pgvector@pg17**: ${reason}`);
  // Without MM_CATALOG: no catalog named.
  const plain = cli(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01']);
  expect(plain.report!.catalog).toBeUndefined();
  expect(plain.stdout).not.toContain('target catalog');
}, 240_000);
