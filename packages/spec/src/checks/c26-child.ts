/**
 * The child process of C26 (c26-snapshot-rollback.ts): one OS process that opens the store the
 * parent names (a `ProcessRecipe`, snapshots.ts), runs a list of operations on one session, and
 * exits. Input: one JSON object on stdin `{ recipe, sessionId, keyPrefix, ops }`. Output: one JSON
 * line per operation on stdout, `{"op":i,"ok":<result>}`, or `{"op":i,"error":{code,message}}`
 * and exit status 3. `loop` never ends on its own: it alternates rollbacks to `ids` and prints
 * `{"progress":n}` after each, until the parent kills the process.
 */
import type { MemoryStore } from '../adapter';
import type { ChatMessage } from '../history';
import { hasSnapshots, type ProcessRecipe } from '../snapshots';

/** One operation of a child. */
export type ChildOp = { op: 'append'; messages: ChatMessage[] } | { op: 'save' } | { op: 'rollback'; id: string } | { op: 'read' } | { op: 'list' } | { op: 'dump' } | { op: 'loop'; ids: string[] };

/** What the parent writes on the child's stdin. */
export interface ChildInput {
  recipe: ProcessRecipe;
  sessionId: string;
  keyPrefix: string;
  ops: ChildOp[];
}

function print(line: unknown): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function main(input: ChildInput): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the recipe names a module at run time; the child runs under tsx's CommonJS hook (--require tsx/cjs), which import() would bypass
  const mod = require(input.recipe.module) as Record<string, (o: unknown) => Promise<MemoryStore>>;
  const open = mod[input.recipe.exportName];
  if (typeof open !== 'function') throw Object.assign(new Error(`${input.recipe.module} has no export ${input.recipe.exportName}`), { code: 'INVALID_INPUT' });
  const store = await open(input.recipe.options);
  if (typeof store.openHistory !== 'function') throw Object.assign(new Error(`adapter ${store.adapter} has no openHistory`), { code: 'CAPABILITY_MISSING' });
  const h = await store.openHistory({ sessionId: input.sessionId, keyPrefix: input.keyPrefix });
  if (!hasSnapshots(h)) throw Object.assign(new Error(`adapter ${store.adapter}: its chat history has no snapshots`), { code: 'CAPABILITY_MISSING' });
  for (const [i, op] of input.ops.entries()) {
    try {
      switch (op.op) {
        case 'append':
          await h.append(op.messages);
          print({ op: i, ok: null });
          break;
        case 'save':
          print({ op: i, ok: await h.saveSnapshot() });
          break;
        case 'rollback':
          await h.rollback(op.id);
          print({ op: i, ok: null });
          break;
        case 'read':
          print({ op: i, ok: await h.read() });
          break;
        case 'list':
          print({ op: i, ok: await h.listSnapshots() });
          break;
        case 'dump': {
          const snaps = await h.listSnapshots();
          const snapshots = [];
          for (const s of snaps) snapshots.push({ id: s.id, messages: await h.readSnapshot(s.id) });
          print({ op: i, ok: { messages: await h.read(), snapshots } });
          break;
        }
        case 'loop':
          for (let n = 1; ; n++) {
            await h.rollback(op.ids[n % op.ids.length]!);
            print({ progress: n });
          }
      }
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      print({ op: i, error: { code: typeof err?.code === 'string' ? err.code : undefined, message: String(err?.message ?? e) } });
      await store.close().catch((c: unknown) => process.stderr.write(`close after the failed operation failed too: ${String(c)}\n`));
      process.exit(3);
    }
  }
  await store.close();
}

let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d: string) => (text += d));
process.stdin.on('end', () => {
  main(JSON.parse(text) as ChildInput).catch((e: unknown) => {
    const err = e as { code?: unknown; message?: unknown };
    print({ op: -1, error: { code: typeof err?.code === 'string' ? err.code : undefined, message: String(err?.message ?? e) } });
    process.exit(3);
  });
});
