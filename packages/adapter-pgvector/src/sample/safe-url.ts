/**
 * A postgres URL without its password, as `sample` prints and writes it (messages, manifest.json,
 * sample-provenance.json): the `user:pw@` part loses `:pw` (user, host, port, database and
 * parameters kept), and libpq's `password=` / `sslpassword=` query parameters become `***`
 * (libpq "Connection URIs": any connection parameter may be given as a query parameter).
 * Never throws: a string `URL` cannot parse is masked by pattern instead.
 */
export function safeUrl(url: string): string {
  let out: string;
  try {
    const u = new URL(url);
    u.password = '';
    out = u.toString();
  } catch {
    out = url.replace(/(\/\/[^:/@]+):[^@]*@/, '$1@');
  }
  // libpq also takes the password as a query parameter.
  return out.replace(/([?&](?:ssl)?password=)[^&#\s'"]*/gi, '$1***');
}
