/** Local provider: a driver's server started natively on this host (e.g. Chroma from its npm bindings). */
export { startLocal, type LocalSpec, type StartedLocal } from './start';
export { freeLoopbackPort, spawnLocal, type LocalProcess } from './process';
export { killAllSync, liveLocalPids } from './guard';
