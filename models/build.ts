/** CLI: `npm run models [-- --force]` converts npm-shipped weights to ONNX under models/build/
 * and copies the passive liveness network (models/liveness.ts; optional, never fails the build). */
import { buildModels, MODELS_BUILD_DIR } from './convert.js';
import { buildLivenessModel } from './liveness.js';

const force = process.argv.includes('--force');
buildModels(MODELS_BUILD_DIR, force, (s) => console.log(s), true);
buildLivenessModel(MODELS_BUILD_DIR, true, (s) => console.log(s));
