/** Embedded provider: a driver's engine in this process (e.g. PGlite). */
export { startEmbedded, type EmbeddedOptions } from './start';
