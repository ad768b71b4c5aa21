import { packageBuild } from '../../tsup.config.base.js';

export default packageBuild(
  ['src/index.ts', 'src/server.ts', 'src/testing.ts', 'src/bin.ts'],
  ['src/index.ts', 'src/server.ts', 'src/testing.ts'],
);
