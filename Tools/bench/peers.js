#!/usr/bin/env node
// Times Node's own id generators the way Tools/bench/peers.py times the Python ones: a warm-up pass, then
// REPEATS timed passes of N calls each, one id per call, kept alive by folding a character of each id into
// a sink. Prints one JSON object per line: {"name", "format", "ids_per_repeat", "samples": [ids/s, ...]}.
//   node Tools/bench/peers.js N REPEATS
"use strict";
const crypto = require("node:crypto");

const n = Number(process.argv[2] || 1_000_000);
const repeats = Number(process.argv[3] || 5);

const peers = [
  { name: "Node crypto.randomUUID()", format: "UUIDv4, 36 chars", make: () => crypto.randomUUID() },
];

let sink = 0;
function pass(make, count) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) sink ^= make().charCodeAt(9);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

for (const peer of peers) {
  pass(peer.make, Math.max(1000, Math.floor(n / 5))); // warm-up: JIT and the random-byte cache
  const samples = [];
  for (let r = 0; r < repeats; r++) samples.push(n / pass(peer.make, n));
  console.log(JSON.stringify({ name: peer.name, format: peer.format, ids_per_repeat: n, samples, sink }));
}
