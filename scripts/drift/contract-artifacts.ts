import { readFileSync } from "node:fs";
import { join } from "node:path";
import { keccak256 } from "viem";
import {
  artifactsDir,
  buildArtifacts,
  permit2RuntimeKeccak,
  readCommittedPermit2Runtime,
} from "../build-contracts.js";

/** Recompiles contracts/ and lists every committed artifact that differs from what the build writes now. */
export async function check(): Promise<string[]> {
  const problems: string[] = [];
  const permit2Runtime = readCommittedPermit2Runtime();
  if (keccak256(permit2Runtime as `0x${string}`) !== permit2RuntimeKeccak) {
    problems.push("packages/chain/artifacts/Permit2.json is not the pinned canonical Permit2 runtime");
  }
  for (const [file, content] of buildArtifacts(permit2Runtime)) {
    let committed = "";
    try {
      committed = readFileSync(join(artifactsDir, file), "utf8");
    } catch {
      problems.push(
        `packages/chain/artifacts/${file} is missing (run node --import tsx scripts/build-contracts.ts)`,
      );
      continue;
    }
    if (committed !== content) {
      problems.push(
        `packages/chain/artifacts/${file} is out of date (run node --import tsx scripts/build-contracts.ts)`,
      );
    }
  }
  return problems;
}
