/** Local provider: servers started natively on this host (Chroma's server from its npm bindings). */
export { startLocalChroma, chromaBindings, chromaCliVersion, LOCAL_CHROMA_ENGINES, type LocalChromaEngine, type LocalChromaSpec, type StartedLocalChroma } from './chroma';
export { freeLoopbackPort, spawnLocal, waitUntilReady, type LocalProcess } from './process';
export { killAllSync, liveLocalPids } from './guard';
