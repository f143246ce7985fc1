/**
 * C22 mixed step's ordering (checks/c22-mixed.ts `ackTurns`): a writer's bad batch waits until the
 * newest acknowledged batch is another writer's, or until every other writer is done.
 */
import { ackTurns } from '../src/checks/c22-mixed';

const settled = async (p: Promise<void>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

test('waits while nothing or only its own batch was acknowledged; goes once another writer acknowledges', async () => {
  const t = ackTurns(3);
  const first = t.otherAcked(1);
  expect(await settled(first)).toBe(false); // nothing acknowledged yet
  t.acked(1);
  expect(await settled(first)).toBe(false); // its own
  t.acked(0);
  expect(await settled(first)).toBe(true);
  expect(await settled(t.otherAcked(2))).toBe(true); // writer 0's is still the newest
  expect(await settled(t.otherAcked(0))).toBe(false);
});

test('goes when every other writer is done, so it never waits for ever', async () => {
  const t = ackTurns(3);
  t.acked(2);
  const p = t.otherAcked(2);
  t.done(0);
  expect(await settled(p)).toBe(false);
  t.done(1);
  expect(await settled(p)).toBe(true);
});
