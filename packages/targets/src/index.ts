/**
 * @memory-matrix/targets: starts backend targets. One line per module; providers add theirs.
 * Names must stay unique across modules (`export *` drops clashing names with a type error).
 */
export * from './types';
export * from './embedded';
export * from './catalog';
export * from './container';
export * from './images';
export * from './providers';
export * from './client';
export * from './registry';
export * from './discovery';
export * from './user-config';
export * from './driver-module';
export * from './readiness';
export * from './docker-status';
export * from './image-source';
export * from './url';
export * from './local';
export * from './faults';
export * from './runtime';
