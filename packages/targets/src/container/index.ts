/** Container provider: starts catalog targets of any registered container kind with testcontainers; labels, cleanup, exit guard. */
export { startContainer, startTimeoutScale, startTimeoutEnvScale, inStartSlot, waitForKind, type ContainerStartSpec, type StartedContainer } from './start';
export { containerEndpoint } from './endpoint';
export { listRunContainers, processAlive, removeRunContainers, type ProjectContainer } from './cleanup';
export { CONTAINER_LABELS, containerLabels, OWNER } from './labels';
export { installGuard, uninstallGuard, liveContainerIds } from './guard';
export { Semaphore, startParallelism } from './semaphore';
export { containerCpuMs } from './cpu';
