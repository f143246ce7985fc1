/** The part of a catalog target the missing-engine message reads. */
export interface DockerTargetInfo {
  /** `backend@version`. */
  name: string;
  /** The driver, e.g. `mastra-pgvector` (a client target's is the client's). */
  backend: string;
  /** How its server starts (a client target carries its server's provider). */
  provider: string;
  /** (client targets) the server target it runs over. */
  serverTarget?: { name: string };
}

/** The Docker CLI's default endpoint on Linux and macOS when neither DOCKER_HOST nor a context names another. */
export const DEFAULT_DOCKER_SOCKET = 'unix:///var/run/docker.sock';

/**
 * Where the Docker CLI looked for an engine, for the message: the address its own error names
 * (`Cannot connect to the Docker daemon at <address>.`, which follows DOCKER_HOST and the current
 * context), else `DOCKER_HOST` when set, else the default socket. Pure.
 */
export function dockerEndpoint(reason: string, env: Record<string, string | undefined>): string {
  const said = /daemon at ([^\s]+?)\.?(?:\s|$)/.exec(reason)?.[1];
  if (said) return env.DOCKER_HOST === said ? `${said} (DOCKER_HOST)` : said;
  if (env.DOCKER_HOST) return `${env.DOCKER_HOST} (DOCKER_HOST)`;
  return `${DEFAULT_DOCKER_SOCKET} (the default socket; DOCKER_HOST is unset)`;
}

/**
 * The layer of a driver: its backend name up to the first `-` (`mastra-pgvector` and
 * `mastra-libsql` are both `mastra`, `langchain-pgvector` is `langchain`, `pgvector` itself).
 */
function layerOf(backend: string): string {
  return backend.split('-')[0]!;
}

/**
 * The cause of a named container target that cannot start because no Docker engine answers,
 * said up front: which target needs the engine (and through which server), where none answers
 * (`dockerEndpoint`) and the CLI's own reason, how to start one (docs/environment.md "No Docker
 * engine"), and the catalog's targets of the same backend, then of the same layer (`layerOf`),
 * that run without one (provider `embedded` or `local`), in catalog order — or that there are
 * none. Pure: `catalog` is every target of the catalog, `reason` is targets' `dockerStatus().reason`.
 */
export function dockerMissingMessage(target: DockerTargetInfo, reason: string, catalog: Iterable<DockerTargetInfo>, env: Record<string, string | undefined> = process.env): string {
  const via = target.serverTarget ? ` (its server ${target.serverTarget.name} runs in a container)` : ' (it runs in a container)';
  const runsWithout = (t: DockerTargetInfo) => t.provider === 'embedded' || t.provider === 'local';
  const all = [...catalog].filter((t) => t.name !== target.name && runsWithout(t));
  const same = all.filter((t) => t.backend === target.backend);
  const layer = all.filter((t) => t.backend !== target.backend && layerOf(t.backend) === layerOf(target.backend));
  const alternatives = [...same, ...layer].map((t) => t.name);
  const said = /^no Docker engine answers \((.*)\)$/s.exec(reason)?.[1] ?? reason; // dockerStatus's wording around the CLI's line
  return (
    `${target.name} needs a Docker engine${via}, and none answers at ${dockerEndpoint(reason, env)} (docker info: ${said}). ` +
    'Start one (docs/environment.md "No Docker engine": your system\'s Docker service, or `bash .ci/docker-up.sh` in the repository) or point DOCKER_HOST at one; ' +
    (alternatives.length ? `targets of ${layerOf(target.backend)} that run without Docker: ${alternatives.join(', ')}` : `no target of ${layerOf(target.backend)} in the catalog runs without Docker`)
  );
}
