/** Fault control of container targets (spec durability.ts): instances on labelled volumes, kill/restart/pause, dumps. */
export { containerFaultControl, withFaults, type FaultControlContext } from './control';
export { ContainerFaultTarget, type InstanceSpec } from './instance';
export { FAULT_KINDS, faultKindSupported, type FaultEndpoint, type FaultKind } from './kinds';
export { postgresFaultKind, pgTableOf } from './postgres-kind';
export { redisFaultKind } from './redis-kind';
export { redisSettingsInArgs, parseClientList, type ClientInfo } from './redis-settings';
export { pgPoolOptions } from './pg-connect';
export { createVolume, removeVolume, listProjectVolumes, removeLeftoverVolumes, liveVolumeNames, type ProjectVolume } from './volumes';
