import { packageBuild } from '../../../tsup.config.base.js';

export default packageBuild(['src/index.ts', 'src/command-line.ts']);
