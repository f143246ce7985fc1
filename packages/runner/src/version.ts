import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * True when the runner runs from the repository's TypeScript sources (`pnpm matrix`, jest: this
 * file is src/version.ts), false from a built package (dist/version.js, e.g. installed with npm).
 */
export const FROM_SOURCE = path.extname(__filename) === '.ts';

/** Repository root when running from its sources (this file is packages/runner/src/version.ts). */
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * The folder that paths in reports and messages are written relative to (dataset and expectation
 * files, release baselines): the repository root when running from its sources, so a report names
 * `golden-data/agent-memories`; else the working directory (an installed copy, where the shipped
 * files are under node_modules/).
 */
export function displayRoot(): string {
  return FROM_SOURCE ? REPO_ROOT : process.cwd();
}

/** `file` relative to `displayRoot()`, or the absolute path when it is that folder itself. */
export function displayPath(file: string): string {
  return path.relative(displayRoot(), file) || file;
}

/** The tool version reported in every report: the runner package's version. */
export const TOOL_VERSION: string = (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
