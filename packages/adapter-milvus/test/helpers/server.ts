import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ContainerEndpoint } from '@memory-matrix/spec';

/**
 * A real kylin-ai-vector-engine (the milvus@lite-1.2 offline image) for the adapter's own tests,
 * without depending on packages/targets (which depends on this package): `docker run` of the
 * newest `memory-matrix/milvus:lite-1.2-<hash8>` image with the project's container labels (run,
 * target, pid, owner) so the matrix's cleanup treats it like its own, gRPC port 19530 published on
 * 127.0.0.1 only. `gate` is '' when it can run, else why not.
 */
export function milvusGate(): { image: string; gate: string } {
  if (spawnSync('docker', ['info'], { timeout: 10_000 }).status !== 0) return { image: '', gate: 'no Docker engine answers (run .ci/docker-up.sh)' };
  const ls = spawnSync('docker', ['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}', 'memory-matrix/milvus'], { encoding: 'utf8', timeout: 10_000 });
  const image =
    (ls.stdout ?? '')
      .split('\n')
      .find((l) => /^memory-matrix\/milvus:lite-1\.2-[0-9a-f]{8}$/.test(l.trim()))
      ?.trim() ?? '';
  return { image, gate: image ? '' : 'image memory-matrix/milvus:lite-1.2-<hash> not built (pnpm matrix images build -t milvus@lite-1.2)' };
}

/** A started test server: container id, mapped port, and a ContainerEndpoint for the driver's facet. */
export interface TestMilvus {
  id: string;
  port: number;
  ep: ContainerEndpoint;
}

/** Start the container and wait (≤ 30 s) until its port answers a real client call (`probe`). Throws with docker's stderr. */
export async function startMilvus(image: string, runId: string, probe: (ep: ContainerEndpoint) => Promise<void>): Promise<TestMilvus> {
  let owner = 'unknown-ns';
  try {
    owner = readlinkSync('/proc/self/ns/pid');
  } catch {
    /* not Linux */
  }
  const labels = { 'memory-matrix.run': runId, 'memory-matrix.target': 'milvus@lite-1.2', 'memory-matrix.pid': String(process.pid), 'memory-matrix.owner': `${hostname()}:${owner}` };
  const run = spawnSync('docker', ['run', '-d', '-p', '127.0.0.1::19530', ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]), image], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`docker run ${image}: ${run.stderr}`);
  const id = run.stdout.trim();
  const port = Number(spawnSync('docker', ['port', id, '19530/tcp'], { encoding: 'utf8' }).stdout.split('\n')[0]?.split(':').pop());
  if (!port) {
    stopMilvus(id);
    throw new Error(`docker port ${id}: no mapping for 19530`);
  }
  const ep: ContainerEndpoint = {
    host: '127.0.0.1',
    port,
    where: `milvus@lite-1.2 (test container ${id.slice(0, 12)})`,
    containerId: id,
    async exec(cmd, opts) {
      const r = spawnSync('docker', ['exec', id, ...cmd], { timeout: opts?.timeoutMs ?? 120_000 });
      return { code: r.status, stdout: r.stdout ?? Buffer.alloc(0), stderr: String(r.stderr ?? '') };
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await probe(ep);
      return { id, port, ep };
    } catch (err) {
      if (Date.now() > deadline) {
        stopMilvus(id);
        throw new Error(`milvus test server on 127.0.0.1:${port} did not answer within 30 s: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 200)); // the server is still starting (a real service)
    }
  }
}

/** Remove the container (and its anonymous volumes); idempotent. */
export function stopMilvus(id: string | undefined): void {
  if (id) spawnSync('docker', ['rm', '-f', '-v', id], { timeout: 60_000 });
}

/** Registers the CI rule: under CI=true a missing Docker/image is a failing test, outside CI the suite is skipped with the reason in its title. */
export function gateSuite(what: string): { image: string; gate: string; suite: jest.Describe; title: (t: string) => string } {
  const { image, gate } = milvusGate();
  if (gate && process.env.CI === 'true') {
    test(`${what} needs Docker and the milvus@lite-1.2 image under CI=true: ${gate}`, () => {
      throw new Error(`CI=true but ${gate}`);
    });
  }
  return { image, gate, suite: gate ? describe.skip : describe, title: (t) => (gate ? `${t} — SKIPPED: ${gate}` : t) };
}
