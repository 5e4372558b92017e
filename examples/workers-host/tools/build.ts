// Bundles the Worker into dist/ (scripts/workers-host runs it before every mode).
import { build } from "./runtime.js";

await build();
