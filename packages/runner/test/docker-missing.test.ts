import { loadCatalog } from '@memory-matrix/targets';
import { dockerEndpoint, dockerMissingMessage, DEFAULT_DOCKER_SOCKET } from '../src/run/docker-missing';

/**
 * The cause a named container target reports when no Docker engine answers (run/docker-missing.ts):
 * said up front, with where none answers, how to start one and the catalog's targets that need
 * none. Pure: no Docker engine is needed (nor asked).
 */
const catalog = loadCatalog();
const targets = [...catalog.targets.values()];
const byName = (name: string) => catalog.targets.get(name)!;
const REASON = 'no Docker engine answers (Cannot connect to the Docker daemon at unix:///nonexistent/docker.sock. Is the docker daemon running?)';

test('a client target over a container server: the engine it needs, where none answers, how to start one, the Mastra targets that need none', () => {
  const msg = dockerMissingMessage(byName('mastra-pgvector@pg17'), REASON, targets, { DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
  expect(msg).toMatch(
    /^mastra-pgvector@pg17 needs a Docker engine \(its server pgvector@pg17 runs in a container\), and none answers at unix:\/\/\/nonexistent\/docker\.sock \(DOCKER_HOST\) \(docker info: Cannot connect to the Docker daemon at/,
  );
  expect(msg).toContain('docs/environment.md "No Docker engine"');
  // Same backend first, then the layer's other backends; never a container target.
  expect(msg).toMatch(/targets of mastra that run without Docker: mastra-pgvector@pglite-pg18, mastra-pgvector@1\.27\.1-pglite-pg18, mastra-libsql@0\.16\.4, mastra-libsql@1\.23\.1$/);
});

test("a server target: the same backend's embedded targets; a layer with none says so", () => {
  const pg = dockerMissingMessage(byName('pgvector@pg17'), REASON, targets, {});
  expect(pg).toMatch(/^pgvector@pg17 needs a Docker engine \(it runs in a container\)/);
  expect(pg).toMatch(/that run without Docker: pgvector@pglite-pg16, pgvector@pglite-pg18$/);
  const redis = dockerMissingMessage(byName('redis@8.0'), 'no docker CLI on PATH', targets, {});
  expect(redis).toContain(`none answers at ${DEFAULT_DOCKER_SOCKET} (the default socket; DOCKER_HOST is unset) (docker info: no docker CLI on PATH)`);
  expect(redis).toMatch(/no target of redis in the catalog runs without Docker$/);
});

test('the endpoint: the one the CLI names, else DOCKER_HOST, else the default socket', () => {
  expect(dockerEndpoint('Cannot connect to the Docker daemon at tcp://10.0.0.9:2375. Is the docker daemon running?', {})).toBe('tcp://10.0.0.9:2375');
  expect(dockerEndpoint('permission denied', { DOCKER_HOST: 'tcp://h:2376' })).toBe('tcp://h:2376 (DOCKER_HOST)');
  expect(dockerEndpoint('docker info did not answer within 5000 ms', {})).toBe(`${DEFAULT_DOCKER_SOCKET} (the default socket; DOCKER_HOST is unset)`);
});
