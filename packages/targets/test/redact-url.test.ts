/** redactUrl: no password of a postgres URL reaches a report or a message, in either form libpq takes. */
import { redactUrl } from '../src/url';

test('user:password@ and password= / sslpassword= query parameters become ***', () => {
  expect(redactUrl('postgres://mm:s3cret@127.0.0.1:5432/db')).toBe('postgres://mm:***@127.0.0.1:5432/db');
  expect(redactUrl('pgvector@url=postgresql://127.0.0.1:5432/db?user=mm&password=QSTRpw77&sslmode=disable')).toBe('pgvector@url=postgresql://127.0.0.1:5432/db?user=mm&password=***&sslmode=disable');
  expect(redactUrl('postgres://h/db?sslpassword=k3y&PASSWORD=x')).toBe('postgres://h/db?sslpassword=***&PASSWORD=***');
  expect(redactUrl('--from postgres://a:b@h/db --n 5')).toBe('--from postgres://a:***@h/db --n 5');
  expect(redactUrl('postgres://mm@h/db')).toBe('postgres://mm@h/db');
});
