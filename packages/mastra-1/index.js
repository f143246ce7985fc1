'use strict';
/**
 * The folder of this package, from which @memory-matrix/adapter-mastra resolves the Mastra 1.x
 * packages (`createRequire(path.join(MASTRA_1_DIR, 'package.json'))`). Loads no Mastra code.
 */
exports.MASTRA_1_DIR = __dirname;
