import { checkLineNode, lineOf, mastraOptionsSchema, mastraPackageVersions } from '../src';

// The two Mastra lines: which one a target's adapterOptions pick, and on which Node each may load.
describe('Mastra lines', () => {
  test('adapterOptions.mastra picks the line; "0" by default; other keys and values are refused', () => {
    expect(lineOf(mastraOptionsSchema.parse({}))).toBe('0');
    expect(lineOf(mastraOptionsSchema.parse({ mastra: '1' }))).toBe('1');
    expect(mastraOptionsSchema.safeParse({ mastra: '2' }).success).toBe(false);
    expect(mastraOptionsSchema.safeParse({ line: '1' }).success).toBe(false);
  });

  test('1.x needs Node >= 22.13 (its packages’ engines): below, TARGET_UNAVAILABLE naming where', () => {
    expect(() => checkLineNode('1', 'mastra-libsql@1.23.1', '20.20.2')).toThrow(expect.objectContaining({ code: 'TARGET_UNAVAILABLE' }));
    expect(() => checkLineNode('1', 'mastra-libsql@1.23.1', '22.12.9')).toThrow(/^mastra-libsql@1\.23\.1: Mastra 1\.x needs Node >= 22\.13\.0/);
    expect(() => checkLineNode('1', 'x', '22.13.0')).not.toThrow();
    expect(() => checkLineNode('0', 'x', '20.10.0')).not.toThrow();
  });

  test('the installed versions of each line, checked against their pins', () => {
    expect(mastraPackageVersions('@mastra/libsql', 'test')).toEqual({ '@mastra/core': '0.24.9', '@mastra/libsql': '0.16.4' });
    if (Number(process.versions.node.split('.')[0]) >= 22) {
      expect(mastraPackageVersions('@mastra/pg', 'test', '1')).toEqual({ '@mastra/core': '1.71.0', '@mastra/pg': '1.27.1' });
    } else {
      expect(() => mastraPackageVersions('@mastra/pg', 'test', '1')).toThrow(/needs Node >= 22\.13\.0/);
    }
  });
});
