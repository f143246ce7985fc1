import { DEFAULT_CAPABILITIES, type Capabilities } from '@memory-matrix/spec';
import { PGVECTOR_CAPABILITIES } from '@memory-matrix/adapter-pgvector';
import { REDIS_CAPABILITIES } from '@memory-matrix/adapter-redis';
import { CHROMA_CAPABILITIES } from '@memory-matrix/adapter-chroma';

/**
 * The capabilities an adapter declares before it connects (registration needs them to register
 * skips). A store may report narrower ones once connected (e.g. a server without a module).
 */
export function adapterCapabilities(backend: 'pgvector' | 'redis' | 'chroma'): Capabilities {
  switch (backend) {
    case 'pgvector':
      return PGVECTOR_CAPABILITIES;
    case 'redis':
      return REDIS_CAPABILITIES;
    case 'chroma':
      return CHROMA_CAPABILITIES;
    default:
      return DEFAULT_CAPABILITIES;
  }
}
