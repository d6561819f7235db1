// `npm run example -- <lane>`: runs one lane's example against the stack `npm start` is running.
const lanes = [
  "permit2",
  "eip3009",
  "wrap-native",
  "swap-token",
  "open-flow",
  "solana-to-evm",
  "evm-to-solana",
];
const lane = process.argv[2] ?? "";
if (!lanes.includes(lane)) {
  console.error(`usage: npm run example -- ${lanes.join("|")}`);
  process.exit(2);
}
await import(`./${lane}.ts`);
