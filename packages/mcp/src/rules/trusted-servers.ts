/**
 * The server names of a `--mcp-trust-read-only` flag: comma-separated, each trimmed; empty
 * names are left out. Nothing given (`undefined`) trusts no server.
 */
export function trustedServerNames(text: string | undefined): readonly string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
