import { execFile } from 'node:child_process';

/**
 * Whether a Docker engine answers here: runs `docker info` (5 s limit). Never throws; `reason`
 * says why not (no CLI, daemon down, permission) for the run's "which targets and why" line.
 */
export function dockerStatus(timeoutMs = 5000): Promise<{ available: boolean; reason: string; serverVersion?: string }> {
  return new Promise((resolve) => {
    execFile('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (!err) return resolve({ available: true, reason: `Docker engine ${stdout.trim()} answers`, serverVersion: stdout.trim() });
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      if (e.code === 'ENOENT') return resolve({ available: false, reason: 'no docker CLI on PATH' });
      if (e.killed) return resolve({ available: false, reason: `docker info did not answer within ${timeoutMs} ms` });
      const line = (stderr || e.message).trim().split('\n').pop() ?? '';
      resolve({ available: false, reason: `no Docker engine answers (${line})` });
    });
  });
}
