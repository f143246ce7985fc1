import { closestNames, didYouMean, editDistance } from '../src/did-you-mean';

test('edit distance: insertions, deletions, substitutions and neighbour swaps count 1, case aside', () => {
  expect(editDistance('topk-exactt', 'topk-exact')).toBe(1);
  expect(editDistance('topk-exatc', 'topk-exact')).toBe(1);
  expect(editDistance('pgvector@pg99', 'pgvector@pg18')).toBe(2);
  expect(editDistance('Targets', 'targets')).toBe(0);
  expect(editDistance('', 'abc')).toBe(3);
});

test('the closest names: the nearest within a third of the length, none when too many or too far', () => {
  expect(closestNames('target', ['description', 'targets', 'fallbackTargets'])).toEqual(['targets']);
  expect(closestNames('redis@8', ['redis@7.0', 'redis@8.0', 'redis@8.0-noquant'])).toEqual(['redis@8.0']);
  expect(closestNames('x@9', ['x@1', 'x@2', 'x@3', 'x@4', 'x@5'])).toEqual([]); // five at distance 1: a guess
  expect(closestNames('chroma', ['chroma@1.0'])).toEqual([]); // 4 > 6 / 3
  expect(closestNames('targets', ['targets'])).toEqual([]);
  expect(didYouMean('a@12', ['a@11', 'a@13'], (k) => `"${k}"`)).toBe('did you mean "a@11" or "a@13"?');
  expect(didYouMean('zzz', ['targets'])).toBe('');
});
