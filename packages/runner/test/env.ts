/** Targets named by MM_TARGETS (comma-separated), the env twin of repeated `--backend`. */
export function targetsFromEnv(): string[] {
  return (process.env.MM_TARGETS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
