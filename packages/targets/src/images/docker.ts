import { MemoryMatrixError } from '@memory-matrix/spec';
import { describeExit, execStreaming, succeeded } from './exec';

/** The Docker CLI binary; `MM_DOCKER_BIN` overrides (default `docker` on PATH). */
export function dockerBin(): string {
  return process.env.MM_DOCKER_BIN || 'docker';
}

/** What `docker info` says when the engine answers. */
export interface DockerEngine {
  /** Engine version, e.g. `20.10.24+dfsg1`. */
  serverVersion: string;
}

/**
 * Asks the engine for its version (bounded by `timeoutMs`, default 10 s).
 * Throws `TARGET_UNAVAILABLE` when the CLI is missing or no engine answers (cause: the CLI output).
 */
export async function dockerEngine(timeoutMs = 10_000): Promise<DockerEngine> {
  let r;
  try {
    r = await execStreaming(dockerBin(), ['version', '--format', '{{.Server.Version}}'], {
      captureStdout: true,
      timeoutMs,
    });
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `docker: cannot run the Docker CLI '${dockerBin()}'`, { cause: err });
  }
  const version = r.stdout.trim();
  if (!succeeded(r) || version === '') {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `docker: no Docker engine answers (run .ci/docker-up.sh): ${describeExit(r)}`);
  }
  return { serverVersion: version };
}

/** Result of `docker image inspect` reduced to what the project records. */
export interface ImageDetails {
  /** Image id, `sha256:<64 hex>`. */
  id: string;
  /** Tags pointing at it, e.g. `['memory-matrix/<backend>:<version>-1a2b3c4d']`. */
  repoTags: string[];
  /** Image labels (empty object when none). */
  labels: Record<string, string>;
  /** ISO creation time. */
  created: string;
  /** Size in bytes. */
  size: number;
  /** The commit message given to `docker import -m`. */
  comment: string;
}

/**
 * Inspects one image by tag or id. Resolves `undefined` when no such image exists; throws
 * `TARGET_UNAVAILABLE` when the engine does not answer.
 */
export async function inspectImage(ref: string): Promise<ImageDetails | undefined> {
  const r = await execStreaming(dockerBin(), ['image', 'inspect', '--format', '{{json .}}', ref], {
    captureStdout: true,
    timeoutMs: 30_000,
  });
  if (!succeeded(r)) {
    if (r.tail.some((l) => /no such image/i.test(l))) return undefined;
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `docker image inspect ${ref}: ${describeExit(r)}`);
  }
  const raw = JSON.parse(r.stdout) as {
    Id: string;
    RepoTags?: string[] | null;
    Config?: { Labels?: Record<string, string> | null } | null;
    Created: string;
    Size: number;
    Comment?: string;
  };
  return {
    id: raw.Id,
    repoTags: raw.RepoTags ?? [],
    labels: raw.Config?.Labels ?? {},
    created: raw.Created,
    size: raw.Size,
    comment: raw.Comment ?? '',
  };
}

/**
 * Ids of images carrying `label` (`key` or `key=value`), e.g. all images the builder made.
 * Throws `TARGET_UNAVAILABLE` when the engine does not answer.
 */
export async function imageIdsByLabel(label: string): Promise<string[]> {
  const r = await execStreaming(dockerBin(), ['images', '--no-trunc', '--quiet', '--filter', `label=${label}`], {
    captureStdout: true,
    timeoutMs: 30_000,
  });
  if (!succeeded(r)) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `docker images --filter label=${label}: ${describeExit(r)}`);
  return [
    ...new Set(
      r.stdout
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}
