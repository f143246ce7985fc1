/** Fault control (spec durability.ts): instances on labelled volumes, kill/restart/pause, dumps — generic over the drivers' fault controls. */
export { containerFaultControl, withFaults, type FaultControlContext } from './control';
export { ContainerFaultTarget, type InstanceSpec } from './instance';
export { LocalFaultTarget, localFaultSupported, localFaultEngine } from './local-instance';
export { localFaultControl, withLocalFaults } from './local-control';
export { createVolume, removeVolume, listProjectVolumes, removeLeftoverVolumes, liveVolumeNames, type ProjectVolume } from './volumes';
