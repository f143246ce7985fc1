/**
 * Splits a stream of text chunks (a socket or pipe with `setEncoding('utf8')`) into lines, in
 * time linear in the bytes received: each chunk is searched for `\n` once, from where the last
 * search ended, and the pieces of a line that spans chunks are joined once, when its `\n` arrives.
 * (Appending every chunk to one string and searching it from the start again costs time
 * quadratic in the length of a line: a store process's answer of 5,111 records with 384-dim
 * embeddings is one ≈ 12 MB line in ≈ 190 socket chunks, and that search took 53 % of the
 * runner's CPU in C15 on SQLite, measured with `node --cpu-prof`.)
 */
export class LineSplitter {
  private parts: string[] = [];

  /** The complete lines `chunk` ends (without their `\n`), in order; the rest is kept for the next chunk. */
  push(chunk: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      this.parts.push(chunk.slice(start, nl));
      lines.push(this.parts.length === 1 ? this.parts[0]! : this.parts.join(''));
      this.parts = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.parts.push(start === 0 ? chunk : chunk.slice(start));
    return lines;
  }

  /** Drop a partial line (a new connection starts clean). */
  reset(): void {
    this.parts = [];
  }
}
