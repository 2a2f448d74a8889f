// `npm run bench`: the per-call flow benchmark (test/bench/flow.ts). The other benchmarks in
// this folder run on their own: `node --import tsx test/bench/<name>.ts`.
await import('./flow.js');
