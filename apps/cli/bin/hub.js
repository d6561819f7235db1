#!/usr/bin/env node
// The `hub` command: runs the TypeScript entry point through tsx (there is no build step).
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
