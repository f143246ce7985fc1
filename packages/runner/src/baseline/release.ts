import { existsSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError, type GoldenDataset, type ReleaseBaseline } from '@memory-matrix/spec';
import type { Catalog, ResolvedTarget } from '@memory-matrix/targets';
import { displayPath } from '../version';
import { readBaseline } from './file';

/** What `releaseBaselines` found: per target the baseline to judge C05 against, and lines for the console. */
export interface ReleaseBaselines {
  byTarget: Map<string, ReleaseBaseline>;
  lines: string[];
}

/**
 * The release baselines of `profile` (its `baselines:` in matrix/targets.yaml) for `targets`:
 * `<dir>/<target>.json`, `dir` relative to the catalog file's folder, read with `readBaseline`. Nothing when the profile
 * has none (or no profile is given). With `strict` false (`--backend` given: the profile picks
 * only the check tier) a target without a file is not compared, said in `lines`. A dataset other than the one the baselines were recorded on
 * (sha256) is not compared, said in `lines`. Throws USAGE, before any backend starts, naming the
 * file and the command that records it, when a target's file is missing or unreadable, records
 * another target, or was recorded with another index than the catalog's.
 */
export function releaseBaselines(catalog: Catalog, profile: string | undefined, targets: readonly ResolvedTarget[], dataset: GoldenDataset, strict = true): ReleaseBaselines {
  const out: ReleaseBaselines = { byTarget: new Map(), lines: [] };
  const spec = profile === undefined ? undefined : catalog.profiles.get(profile)?.baselines;
  if (!spec) return out;
  for (const t of targets) {
    const file = path.resolve(path.dirname(catalog.file), spec.dir, `${t.name}.json`);
    const rel = displayPath(file);
    const how = `record it with: pnpm matrix record --backend ${t.name} --out ${rel}`;
    if (!existsSync(file)) {
      if (strict) throw new MemoryMatrixError('USAGE', `profile ${profile}: no release baseline for ${t.name} (${rel} is missing); ${how}`);
      out.lines.push(`${t.name}: no release baseline ${rel} (profile ${profile}): judged against the floors only`);
      continue;
    }
    let b;
    try {
      b = readBaseline(file);
    } catch (e) {
      throw new MemoryMatrixError('USAGE', `profile ${profile}: release baseline ${rel}: ${(e as Error).message}`, { cause: e });
    }
    if (b.target !== t.name) throw new MemoryMatrixError('USAGE', `profile ${profile}: release baseline ${rel} records ${b.target}, not ${t.name}; ${how}`);
    if (b.dataset.sha256 !== dataset.datasetSha256) {
      out.lines.push(
        `${t.name}: release baseline ${rel} is for dataset ${b.dataset.name} ${b.dataset.sha256.slice(0, 12)}, this run's is ${dataset.manifest.name} ${dataset.datasetSha256.slice(0, 12)}: not compared`,
      );
      continue;
    }
    if (JSON.stringify(b.runs.index.index) !== JSON.stringify(t.index)) {
      throw new MemoryMatrixError(
        'USAGE',
        `profile ${profile}: release baseline ${rel} was recorded with index ${JSON.stringify(b.runs.index.index)}, the catalog's is ${JSON.stringify(t.index)}; ${how}`,
      );
    }
    out.byTarget.set(t.name, {
      file: rel,
      recordedAt: b.provenance.recordedAt,
      serverVersion: b.provenance.serverVersion.split(' on ')[0]!,
      queries: new Map(b.runs.index.queries.map((q) => [q.query, { ids: q.ids, scores: q.scores }])),
      meanRecallDrop: spec.meanRecallDrop,
      queryRecallDrop: spec.queryRecallDrop,
    });
    out.lines.push(
      `${t.name}: C05 also judged against the release baseline ${rel} (recorded ${b.provenance.recordedAt}; mean recall drop ≤ ${spec.meanRecallDrop}, per query ≤ ${spec.queryRecallDrop})`,
    );
  }
  return out;
}
