#!/usr/bin/env node
// Writes test/fixtures/trainers/: each RL trainer's rollout dump, laid out and serialised as its
// writer code does (test/fixtures/README.md names the repository, path, commit and function of
// each), with real GSM8K problems and model solutions as their texts. Deterministic; run it again
// after changing a writer here, and commit what it writes.
//   node scripts/make-trainer-fixtures.mjs
import { rmSync } from 'node:fs';
import { OUT, qwenTokenizer } from './trainer-fixtures/gsm8k.mjs';
import { writeVerlLegacy, writeVerlV1 } from './trainer-fixtures/verl.mjs';
import { writeTrl } from './trainer-fixtures/trl.mjs';
import { writeNemoRl } from './trainer-fixtures/nemoRl.mjs';
import { writePrimeRl } from './trainer-fixtures/primeRl.mjs';
import { writeOpenInstruct } from './trainer-fixtures/openInstruct.mjs';
import { writeSlime } from './trainer-fixtures/slime.mjs';
import { writeGrpoLoop } from './trainer-fixtures/grpoLoop.mjs';
import { writeRoll } from './trainer-fixtures/roll.mjs';
import { writeAreal } from './trainer-fixtures/areal.mjs';
import { writeSkyrl } from './trainer-fixtures/skyrl.mjs';

rmSync(OUT, { recursive: true, force: true });
const tokenizer = await qwenTokenizer();
writeVerlLegacy();
writeVerlV1();
writeTrl();
writeNemoRl(tokenizer);
writePrimeRl(tokenizer);
writeOpenInstruct(tokenizer);
writeSlime();
writeGrpoLoop();
writeRoll();
writeAreal(tokenizer);
writeSkyrl();
console.log(`wrote ${OUT}`);
