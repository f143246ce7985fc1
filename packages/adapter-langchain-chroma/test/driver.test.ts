import { langchainChromaDriver, langchainChromaOptionsSchema } from '../src';

/** The driver's preflight reports the client versions the target runs (no server needed). */
test('preflight: the chromadb major of adapterOptions, pinned in package.json, with @langchain/community and @langchain/core', () => {
  const facet = langchainChromaDriver.client!;
  expect(facet.preflight('t', langchainChromaOptionsSchema.parse({}))).toEqual({ '@langchain/community': '1.1.29', '@langchain/core': '1.4.0', chromadb: '3.5.0' });
  expect(facet.preflight('t', langchainChromaOptionsSchema.parse({ chromadb: '1' }))).toEqual({ '@langchain/community': '1.1.29', '@langchain/core': '1.4.0', chromadb: '1.10.5' });
  expect(() => langchainChromaOptionsSchema.parse({ chromadb: '2' })).toThrow();
  expect(() => langchainChromaOptionsSchema.parse({ chroma: '3' })).toThrow();
});
