#!/usr/bin/env node
// Entry point of the `biostation` command: runs the TypeScript sources through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli.ts');
await main(process.argv);
