/**
 * The mastra-libsql driver (Mastra's LibSQLVector on an embedded libSQL file). One package
 * registers one driver; the code is shared with mastra-pgvector in @memory-matrix/adapter-mastra.
 */
export { mastraLibsqlDriver } from '@memory-matrix/adapter-mastra';
