import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Repository root (this file is packages/runner/src/version.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The tool version reported in every report: the runner package's version. */
export const TOOL_VERSION: string = (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
