/** Container provider: starts catalog targets from local images with testcontainers; labels, cleanup, exit guard. */
export { startContainer, startTimeoutScale, type ContainerStartSpec, type StartedContainer } from './start';
export { listRunContainers, processAlive, removeRunContainers, type ProjectContainer } from './cleanup';
export { CONTAINER_LABELS, containerLabels } from './labels';
export { installGuard, uninstallGuard, liveContainerIds } from './guard';
export { Semaphore, startParallelism } from './semaphore';
export { pgConnectionString, type PgConnection, type PgVersions } from './postgres';
export { startRedisContainer, redisAdapterOptions, type RedisContainerSpec, type StartedRedisContainer } from './redis';
export { startChromaContainer, CHROMA_PORT, type ChromaContainerSpec, type StartedChromaContainer } from './chroma';
