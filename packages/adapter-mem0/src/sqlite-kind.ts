import Database from 'better-sqlite3';
import type { Mem0StoreKind } from './collection';
import { wrapLayerError } from './errors';
import { compileMem0Filter } from './filter-compile';
import { mem0ScoreToCanonical } from './scores';

/**
 * The embedded store kind (mem0's provider `memory`, one better-sqlite3 file per collection at
 * `dbPath`): vectors read from mem0's own file (`SELECT id, vector FROM vectors WHERE id = ?`, a
 * read-only connection; the float32 blob search ranks, bit-exact with what was written), filters
 * compiled for mem0's JS filter (filter-compile.ts), scores as mem0's cosine (scores.ts). Throws
 * BACKEND_ERROR when the file cannot be opened.
 */
export function sqliteKind(dbPath: string): Mem0StoreKind {
  return {
    compileWhere: compileMem0Filter,
    toCanonical: mem0ScoreToCanonical,
    async vectorsOf(mem0Ids, where) {
      const out = new Map<string, Float32Array>();
      if (mem0Ids.length === 0) return out;
      let db: Database.Database;
      try {
        db = new Database(dbPath, { readonly: true, fileMustExist: true });
      } catch (err) {
        throw wrapLayerError(err, `open mem0's store file ${dbPath} of ${where}`);
      }
      try {
        const stmt = db.prepare('SELECT id, vector FROM vectors WHERE id = ?');
        for (const id of mem0Ids) {
          const row = stmt.get(id) as { id: string; vector: Buffer } | undefined;
          if (row) out.set(row.id, new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)));
        }
      } finally {
        db.close();
      }
      return out;
    },
  };
}
