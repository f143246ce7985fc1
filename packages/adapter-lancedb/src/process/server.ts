/**
 * The LanceDB store PROCESS (spec `serveStoreProcess`): the process that owns the database
 * directory `<dataDir>` for the fault checks (C15 kills it with SIGKILL mid-stream and starts it
 * again on the same directory; C22 runs one per writer on one directory). Every client connection
 * gets its own LanceDB connection (`createLancedbStore` on the directory), as N threads of an
 * application would hold. A request is answered after its Lance commit. Durability settings: none
 * accepted (LanceDB has none; one given fails the start, exit 2). The index options are the
 * driver's defaults (`hnswPartitions` 1): the generic local provider hands a launcher no
 * adapterOptions. `effective` is the directory and the read consistency.
 */
import { serveStoreProcess } from '@memory-matrix/spec';
import { ADAPTER } from '../context';
import { createLancedbStore, type LancedbStore } from '../lancedb-adapter';
import { lancedbAdapterOptionsSchema } from '../options';

serveStoreProcess<LancedbStore>({
  adapter: ADAPTER,
  configure(dataDir, settings) {
    if (Object.keys(settings).length) {
      throw new Error(`lancedb store process ${dataDir}: durability settings ${Object.keys(settings).join(', ')} are not supported (LanceDB has no durability settings; give none)`);
    }
    const options = lancedbAdapterOptionsSchema.parse({});
    return {
      open: () => createLancedbStore({ dir: dataDir, index: options }),
      /** The database directory and read consistency of the process (LanceDB has no durability settings to read back). */
      effective: (s) => ({ dir: s.dir, readConsistencyInterval: '0' }),
    };
  },
});
