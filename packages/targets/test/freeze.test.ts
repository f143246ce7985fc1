/**
 * freezeWithRetry: `docker pause` is issued again only after runc's "unable to freeze" (the engine's
 * cgroup v1 freezer gave up and thawed the container); any other error is thrown as it is. The
 * engine's message below is the one a CI run printed (pgvector@pg17, C23).
 */
import { freezeWithRetry } from '../src/faults/freeze';

const runcRefused = (): Error =>
  new Error(
    'pgvector@pg17 fault instance: docker pause 9ea9e68dad9e: exit code 1; last output: Error response from daemon: Cannot pause container 9ea9e68dad9e: OCI runtime pause failed: unable to freeze: unknown',
  );

test('a pause refused by the freezer once is issued again and succeeds', async () => {
  let calls = 0;
  await freezeWithRetry(async () => {
    if (++calls === 1) throw runcRefused();
  }, 'pgvector@pg17');
  expect(calls).toBe(2);
});

test('after 3 freezer refusals: BACKEND_ERROR naming the engine, not the server', async () => {
  let calls = 0;
  const err = (await freezeWithRetry(async () => {
    calls++;
    throw runcRefused();
  }, 'pgvector@pg17').catch((e: unknown) => e)) as Error & { code?: string };
  expect(calls).toBe(3);
  expect(err.code).toBe('BACKEND_ERROR');
  expect(err.message).toMatch(/^pgvector@pg17: the Docker engine could not freeze the container in 3 attempts .*not a finding about the server: .*unable to freeze/);
});

test('any other error is thrown at once, unchanged', async () => {
  let calls = 0;
  const other = new Error('docker pause abc: exit code 1; last output: Error response from daemon: No such container: abc');
  await expect(
    freezeWithRetry(async () => {
      calls++;
      throw other;
    }, 'redis@8.0'),
  ).rejects.toBe(other);
  expect(calls).toBe(1);
});
