/**
 * Parse one raw RFC 822 message of the Spam Assassin corpus into the parts a memory store keeps:
 * headers (unfolded, first occurrence wins), a readable body (MIME boundaries, base64 runs and
 * HTML tags dropped, at most `maxBody` characters), and the Date header as an ISO instant.
 */

/** Headers as a Map of lower-case name → value; the body as the text after the first blank line. */
export function splitMessage(raw) {
  const text = raw.replace(/\r\n/g, '\n');
  const cut = text.indexOf('\n\n');
  const head = cut < 0 ? text : text.slice(0, cut);
  const body = cut < 0 ? '' : text.slice(cut + 2);
  const headers = new Map();
  let last = null;
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && last) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const m = /^([!-9;-~]+):\s?(.*)$/.exec(line);
    if (!m) continue;
    last = m[1].toLowerCase();
    if (!headers.has(last)) headers.set(last, m[2].trim());
    else last = `${last}\u0000dup`;
  }
  return { headers, body };
}

/** A readable body: no MIME part headers or boundaries, no base64 lines, no HTML tags or entities. */
export function readableBody(body, maxBody) {
  const lines = [];
  for (const line of body.split('\n')) {
    if (/^--[\w'()+,./:=?-]{6,}/.test(line.trim()) && !/^--\s*$/.test(line)) continue; // MIME boundary, not "-- " signature
    if (/^content-[\w-]+:/i.test(line) || /^mime-version:/i.test(line)) continue;
    if (/^[A-Za-z0-9+/=]{60,}$/.test(line.trim())) continue; // base64
    lines.push(line);
  }
  let out = lines.join('\n');
  if (/<(html|body|p|br|div|table|font)\b/i.test(out)) {
    out = out
      .replace(/<(style|script)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<br\s*\/?>|<\/p>|<\/div>|<\/tr>/gi, '\n')
      .replace(/<[^>]+>/g, ' ');
    out = out
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#(\d+);/g, (_, d) => String.fromCharCode(Number(d)));
  }
  out = out
    .replace(/=\n/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return out.length > maxBody ? out.slice(0, maxBody) : out;
}

/** The Date header as `YYYY-MM-DDTHH:MM:SS.sssZ`, or null when it is missing or not a date. */
export function messageDate(headers) {
  const d = headers.get('date');
  if (!d) return null;
  const t = Date.parse(d.replace(/\s*\([^)]*\)\s*$/, ''));
  if (!Number.isFinite(t)) return null;
  const iso = new Date(t).toISOString();
  return iso >= '1990' && iso < '2010' ? iso : null;
}
