/**
 * A Ctrl-C that comes after the last verdict is written does not change the exit status
 * (cli-exit.ts `exitWhenDone`): the process exits with the status its reports hold, never 130
 * beside a report that says passed. Child processes: a fixture at the CLI's exit (the signal in
 * Node's teardown, where a drained loop's end let it kill the process), and a real run of C01 on
 * sqlite signalled as it prints where its reports are.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO, RUNNER_DIR } from './cli-helpers';

/** Run `args` under node with tsx, send SIGINT when a line of its output matches `when`; its exit status or signal, and its output. */
function signalledAt(args: string[], when: RegExp): Promise<{ code: number | null; signal: NodeJS.Signals | null; sent: boolean; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.JEST_WORKER_ID;
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), ...args], { cwd: REPO, env });
  let out = '';
  let sent = false;
  const onData = (d: Buffer): void => {
    out += d.toString();
    if (!sent && when.test(out)) {
      sent = true;
      child.kill('SIGINT');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, sent, out })));
}

test.each([0, 1])(
  'a SIGINT in the exit of a finished command (status %i) leaves its status',
  async (status) => {
    for (let i = 0; i < 2; i++) {
      const r = await signalledAt([path.join(__dirname, 'fixtures', 'late-signal.ts'), String(status)], /^exiting$/m);
      expect(r.sent).toBe(true);
      expect({ code: r.code, signal: r.signal }).toEqual({ code: status, signal: null });
    }
  },
  120_000,
);

test('a real run signalled once it has written its reports: exit 0, as report.json says', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-late-signal-'));
  try {
    const r = await signalledAt([path.join(RUNNER_DIR, 'src', 'cli.ts'), '--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01', '--report-dir', dir], /^reports: /m);
    expect(r.sent).toBe(true);
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as { exitCode: number; error?: unknown };
    expect(report).toMatchObject({ exitCode: 0 });
    expect(report.error).toBeUndefined();
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 0, signal: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 240_000);
