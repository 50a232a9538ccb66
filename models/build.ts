/** CLI: `npm run models [-- --force]` converts npm-shipped weights to ONNX under models/build/. */
import { buildModels, MODELS_BUILD_DIR } from './convert.js';

const force = process.argv.includes('--force');
buildModels(MODELS_BUILD_DIR, force, (s) => console.log(s), true);
