// Runs every `*.bench.ts` file in this folder, one after another, and prints its figures.
// Benchmarks compare against a baseline measured in the same run; they never fail on a timing.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const folder = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((part) => name.includes(part)))
  .sort();

for (const name of files) {
  console.log(`\n## ${name.replace(/\.bench\.ts$/, '')}\n`);
  const module = (await import(pathToFileURL(`${folder}${name}`).href)) as {
    run(): Promise<void>;
  };
  await module.run();
}
