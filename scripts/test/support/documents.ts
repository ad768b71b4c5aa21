import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository's documents, relative to `root`: the root README, then each package's README
 * and any other `.md` beside it (the terminal agent has its own), never a generated CHANGELOG.
 */
export function documents(root: string): string[] {
  const found = ['README.md'];
  for (const parent of ['packages', 'packages/core']) {
    for (const name of readdirSync(join(root, parent))) {
      const folder = join(parent, name);
      if (!existsSync(join(root, folder, 'README.md'))) continue;
      found.push(join(folder, 'README.md'));
      const others = readdirSync(join(root, folder)).filter(
        (file) => file.endsWith('.md') && file !== 'README.md' && file !== 'CHANGELOG.md',
      );
      found.push(...others.sort().map((file) => join(folder, file)));
    }
  }
  return found;
}
