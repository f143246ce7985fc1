/**
 * `--dataset <name>` resolution (run.ts `datasetDir`): the working directory's golden-data/ first,
 * then the shipped datasets; a name in neither, from a folder outside the repository, names both
 * places and every dataset there (it named only the shipped folder).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GOLDEN_DATA_DIR } from '@memory-matrix/golden-data';
import { datasetDir } from '../src/run';

describe('datasetDir', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  test('outside the repository: own golden-data/ first, then the shipped one; neither names both and lists their datasets', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-dsdir-'));
    mkdirSync(path.join(dir, 'golden-data', 'mine'), { recursive: true });
    writeFileSync(path.join(dir, 'golden-data', 'mine', 'manifest.json'), '{}');
    process.chdir(dir);
    const own = path.join(process.cwd(), 'golden-data');
    expect(datasetDir('mine')).toBe(path.join(own, 'mine'));
    expect(datasetDir('agent-memories')).toBe(path.join(GOLDEN_DATA_DIR, 'agent-memories'));
    expect(() => datasetDir('agent-memorie')).toThrow(
      expect.objectContaining({
        code: 'GOLDEN_MISSING',
        message: `--dataset agent-memorie: no dataset of that name in ${own} (yours: \`memory-matrix sample\` writes there) or in the shipped ones (${GOLDEN_DATA_DIR}); did you mean agent-memories? the datasets are agent-memories, email-sample, mine`,
      }),
    );
  });
});
