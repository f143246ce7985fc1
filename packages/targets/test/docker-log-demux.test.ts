import { demuxLog } from '../src/faults/docker-ops';

/** One Engine API log frame: stream byte, three zero bytes, payload length (uint32 BE), payload. */
function frame(stream: 1 | 2, text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

describe('demuxLog (Engine API container log frames)', () => {
  it('joins stdout and stderr frames in order, dropping the headers', () => {
    const buf = Buffer.concat([frame(1, 'starting\n'), frame(2, 'warning: x\n'), frame(1, 'ready to accept connections\n')]);
    expect(demuxLog(buf)).toBe('starting\nwarning: x\nready to accept connections\n');
  });

  it('keeps a frame that ends mid-line and a frame split across its length (a log read while written)', () => {
    const whole = Buffer.concat([frame(1, 'database system is rea'), frame(1, 'dy to accept connections\n')]);
    expect(demuxLog(whole)).toBe('database system is ready to accept connections\n');
    expect(demuxLog(whole.subarray(0, whole.length - 5))).toBe('database system is ready to accept connect');
  });

  it('returns a TTY log (no frame headers) as it is, and an empty log as empty', () => {
    expect(demuxLog(Buffer.from('plain line\nnext\n'))).toBe('plain line\nnext\n');
    expect(demuxLog(Buffer.alloc(0))).toBe('');
  });
});
