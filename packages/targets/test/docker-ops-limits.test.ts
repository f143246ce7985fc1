/**
 * The fault machinery's Docker calls are bounded by their limit × the host factor (spec host.ts),
 * and a call killed at its limit says so with the limit: `docker` (the CLI, default 30 s) and
 * `execBinary` (`docker exec`, default 120 s). A stand-in for the docker binary (MM_DOCKER_BIN, a
 * shell script that sleeps) and a fixed factor (MM_HOST_FACTOR) make it run without an engine.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docker, execBinary } from '../src/faults/docker-ops';

describe('docker calls of the fault machinery: limit × host factor', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-docker-ops-'));
  const bin = path.join(dir, 'docker');
  const saved = { bin: process.env.MM_DOCKER_BIN, factor: process.env.MM_HOST_FACTOR };
  beforeAll(() => {
    writeFileSync(bin, '#!/bin/sh\nprintf out; sleep 2\n');
    chmodSync(bin, 0o755);
    process.env.MM_DOCKER_BIN = bin;
    process.env.MM_HOST_FACTOR = '2';
  });
  afterAll(() => {
    for (const [k, v] of [
      ['MM_DOCKER_BIN', saved.bin],
      ['MM_HOST_FACTOR', saved.factor],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    rmSync(dir, { recursive: true, force: true });
  });

  test('execBinary: killed at the limit × the factor, killedAfter names both; within it, no killedAfter', async () => {
    const killed = await execBinary('c0ffee', ['pg_dump'], { timeoutMs: 300 });
    expect(killed.code).toBeNull();
    expect(killed.killedAfter).toBe('300 ms × host factor 2 = 600 ms');
    const done = await execBinary('c0ffee', ['pg_dump'], { timeoutMs: 2_000 }); // 4 s at factor 2: the 2 s sleep ends first
    expect(done).toMatchObject({ code: 0, stdout: Buffer.from('out') });
    expect(done.killedAfter).toBeUndefined();
  });

  test('docker: a call killed at its limit is BACKEND_ERROR naming where, the command and the scaled limit', async () => {
    await expect(docker(['stop', '-t', '30', 'c0ffee'], 'pgvector@pg17 [default]', 300)).rejects.toThrow(/^pgvector@pg17 \[default\]: docker stop -t 30: .*\(limit 300 ms × host factor 2 = 600 ms\)$/);
    await expect(docker(['stop', '-t', '30', 'c0ffee'], 'pgvector@pg17 [default]', 300)).rejects.toMatchObject({ code: 'BACKEND_ERROR' });
  });
});
