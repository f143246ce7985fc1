import type { ContainerKind, DurabilityConfiguration } from '@memory-matrix/spec';
import { registerRun } from '../container/guard';
import { containerLabels } from '../container/labels';
import { docker } from './docker-ops';

/** What to start: one target in one durability configuration, on a volume. */
export interface InstanceSpec {
  target: string;
  configuration: DurabilityConfiguration;
  /** The target's container kind (its driver's facts); must have `faults`. */
  kind: ContainerKind<unknown>;
  /** The target's parsed `adapterOptions`, handed to the kind's `connect`. */
  adapterOptions?: unknown;
  /** Local image reference. */
  image: string;
  runId: string;
  /** The volume mounted at `dataDir` (created by the caller). */
  volume: string;
  dataDir: string;
  /** Start deadline per (re)start, ms, already scaled. */
  startTimeoutMs: number;
  /** Called once by `stop()` after the container is removed (the control releases the volume). */
  onStopped?: () => Promise<void>;
  /** The volume holds data another image wrote: run the kind's `adoptStorageCmd` first. */
  adoptStorage?: boolean;
  /** A host directory (a local instance's storage) whose contents are copied into the new volume first (`cp -a` in a one-off container of `image`, the directory mounted read-only). */
  seedFrom?: string;
}

/**
 * Create (not start) the container of a fault instance: labelled like every container of run
 * `spec.runId` plus `memory-matrix.fault=<configuration>`, its data directory the volume, its
 * port published on 127.0.0.1, the configuration's `args` after the image's CMD. First, when
 * asked, the volume is seeded from `spec.seedFrom` and adopted by the kind's `adoptStorageCmd`
 * (one-off containers of the image). Returns the container id; throws BACKEND_ERROR (docker-ops.ts `docker`)
 * when a docker command fails.
 */
export async function createContainer(spec: InstanceSpec): Promise<string> {
  const where = `${spec.target} [${spec.configuration.name}]`;
  const baseCmd = spec.configuration.args?.length ? await imageCmd(spec.image, where) : [];
  const labels = Object.entries({ ...containerLabels(spec.runId, spec.target), 'memory-matrix.fault': spec.configuration.name }).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  registerRun(spec.runId);
  if (spec.seedFrom) {
    await docker(
      [
        'run',
        '--rm',
        ...labels,
        '--user',
        'root',
        '--entrypoint',
        'cp',
        '--mount',
        `type=volume,src=${spec.volume},dst=${spec.dataDir}`,
        '--mount',
        `type=bind,src=${spec.seedFrom},dst=/mm-seed,readonly`,
        spec.image,
        '-a',
        '/mm-seed/.',
        `${spec.dataDir}/`,
      ],
      `${where}: copy ${spec.seedFrom} into the volume`,
      300_000,
    );
  }
  const adopt = spec.adoptStorage ? spec.kind.faults?.adoptStorageCmd?.(spec.dataDir) : undefined;
  if (adopt) {
    await docker(
      ['run', '--rm', ...labels, '--user', adopt.user, '--entrypoint', adopt.entrypoint, '--mount', `type=volume,src=${spec.volume},dst=${spec.dataDir}`, spec.image, ...adopt.args],
      `${where}: adopt the data directory`,
      120_000,
    );
  }
  return (
    await docker(
      [
        'create',
        ...labels,
        '-p',
        `127.0.0.1::${spec.kind.port}`,
        '--mount',
        `type=volume,src=${spec.volume},dst=${spec.dataDir}`,
        '--stop-signal',
        spec.kind.stopSignal ?? 'SIGTERM',
        ...(spec.kind.shmBytes ? ['--shm-size', String(spec.kind.shmBytes)] : []),
        spec.image,
        ...baseCmd,
        ...(spec.configuration.args ?? []),
      ],
      where,
    )
  ).trim();
}

/** The image's CMD (ENTRYPOINT is kept by Docker), to append a configuration's args to. */
async function imageCmd(image: string, where: string): Promise<string[]> {
  const out = await docker(['image', 'inspect', '--format', '{{json .Config.Cmd}}', image], where);
  const cmd = JSON.parse(out.trim() || 'null') as string[] | null;
  return cmd ?? [];
}
