import { createRequire } from 'node:module';
import type { ChromaClient } from 'chromadb';

/**
 * The chromadb JavaScript client majors this driver can put under LangChain.js' `Chroma`
 * (`adapterOptions.chromadb`): LangChain's `chromadb` peer dependency is `*`, so a LangChain user
 * runs whichever major their own package.json pins.
 * - `3`: `chromadb` 3.5.0 (the package name LangChain itself imports); `ChromaClient({ host, port, ssl, fetchOptions })`.
 * - `1`: `chromadb` 1.10.5 (the last 1.x; installed under the npm alias `chromadb-1`);
 *   `ChromaClient({ path, fetchOptions })` (1.x has no host/port arguments).
 * Both send their requests through the global `fetch` with `fetchOptions` as the init, so the
 * memory-matrix transport (`fetchOptions.dispatcher`) sees every request of either.
 */
export const CHROMADB_MAJORS = { '3': 'chromadb', '1': 'chromadb-1' } as const;
export type ChromadbMajor = keyof typeof CHROMADB_MAJORS;

const here = createRequire(__filename);

/**
 * A new chromadb client of `major` for the server at `url` (`http://host:port`), every request
 * through `dispatcher` (an undici Dispatcher). LangChain's `Chroma` is handed it as `index`.
 */
export function chromadbClient(major: ChromadbMajor, url: string, dispatcher: unknown): ChromaClient {
  const fetchOptions = { dispatcher } as unknown as RequestInit;
  if (major === '1') {
    const { ChromaClient: V1 } = here(CHROMADB_MAJORS['1']) as { ChromaClient: new (a: { path: string; fetchOptions: RequestInit }) => unknown };
    return new V1({ path: url, fetchOptions }) as ChromaClient;
  }
  const u = new URL(url);
  const { ChromaClient: V3 } = here(CHROMADB_MAJORS['3']) as typeof import('chromadb');
  return new V3({ host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)), ssl: u.protocol === 'https:', fetchOptions });
}
