import { wrapBackendError } from '../src/context';

/** How server errors reach the caller: OOM gets its own code (C19), EXECABORT names what aborted it. */
describe('wrapBackendError', () => {
  test("an OOM reply becomes OUT_OF_MEMORY with the server's words", () => {
    const e = wrapBackendError(new Error("OOM command not allowed when used memory > 'maxmemory'."), 'append history on k');
    expect(e.code).toBe('OUT_OF_MEMORY');
    expect(e.message).toBe("redis: append history on k failed: OOM command not allowed when used memory > 'maxmemory'.");
  });

  test('EXECABORT lists the queued replies that aborted the MULTI (ioredis previousErrors)', () => {
    const abort = Object.assign(new Error('EXECABORT Transaction discarded because of previous errors.'), {
      previousErrors: [new Error("OOM command not allowed when used memory > 'maxmemory'."), new Error("OOM command not allowed when used memory > 'maxmemory'.")],
    });
    const e = wrapBackendError(abort, 'upsert on v');
    expect(e.code).toBe('OUT_OF_MEMORY');
    expect(e.message).toBe("redis: upsert on v failed: EXECABORT Transaction discarded because of previous errors. (OOM command not allowed when used memory > 'maxmemory'.)");
    expect(e.cause).toBe(abort);
  });

  test('any other error stays BACKEND_ERROR', () => {
    expect(wrapBackendError(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'), 'get').code).toBe('BACKEND_ERROR');
  });
});
