/** Embedded provider: PostgreSQL + pgvector in process (PGlite 0.2 / 0.5). */
export { startEmbedded, type EmbeddedOptions } from './start';
export { EMBEDDED_ENGINES, ENGINE_MODULES, type EmbeddedEngine } from './engines';
