/**
 * report.html's own page scripts (report/html/client/format.js, tables.js) run in a node:vm
 * context over a minimal DOM (elements with attributes, dataset and children; text nodes): what
 * the page draws, without a browser (html.test.ts drives Chromium when present).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

/** A DOM node of the minimal document. */
export class Node {}

/** A text node: `text` as given (the page never writes HTML). */
export class Text extends Node {
  constructor(readonly text: string) {
    super();
  }
}

/** An element: tag, attributes, dataset and children; `all(pred)` finds descendants depth-first. */
export class El extends Node {
  attrs: Record<string, string> = {};
  dataset: Record<string, string> = {};
  children: Node[] = [];
  constructor(readonly tag: string) {
    super();
  }
  setAttribute(k: string, v: string): void {
    this.attrs[k] = v;
  }
  addEventListener(): void {}
  append(c: Node): void {
    this.children.push(c);
  }
  get textContent(): string {
    return this.children.map((c) => (c instanceof Text ? c.text : (c as El).textContent)).join('');
  }
  all(pred: (e: El) => boolean): El[] {
    const kids = this.children.filter((c): c is El => c instanceof El);
    return [...kids.filter(pred), ...kids.flatMap((k) => k.all(pred))];
  }
}

/** The page's `MM` namespace as the tests use it: the check matrix and the summary head, each from a parsed report.json. */
export interface PageScripts {
  checkMatrix(r: unknown): El;
  summary(r: unknown): El;
}

/** Loads format.js and tables.js into a fresh vm context over the minimal document; returns their `MM`. */
export function loadPage(): PageScripts {
  const document = { createElement: (t: string) => new El(t), createTextNode: (t: string) => new Text(t) };
  const dir = path.join(__dirname, '..', 'src', 'report', 'html', 'client');
  const ctx = vm.createContext({ document, Node, console });
  for (const f of ['format.js', 'tables.js']) vm.runInContext(`(() => {\n${readFileSync(path.join(dir, f), 'utf8')}\n})();`, ctx);
  return (ctx as unknown as { MM: PageScripts }).MM;
}
