/**
 * Prettier settings, chosen to match how the code is already written: single quotes, semicolons,
 * trailing commas everywhere, parentheses around every arrow parameter, and long lines (the
 * code's 99th percentile line is about 190 characters; at printWidth 200 the fewest files change
 * for the least loss of readability). YAML keeps its double quotes. `pnpm format` applies it,
 * `pnpm lint` checks it.
 * @type {import('prettier').Config}
 */
export default {
  printWidth: 200,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  arrowParens: 'always',
  overrides: [{ files: ['*.yaml', '*.yml'], options: { singleQuote: false } }],
};
