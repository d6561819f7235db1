import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEVNET_MNEMONIC, deriveDevnetAccounts, devnetAccounts } from "../src/chains/index.js";

describe("devnet accounts", () => {
  it("the written-out account table is exactly what the devnet mnemonic derives", () => {
    assert.deepEqual(devnetAccounts(), deriveDevnetAccounts(DEVNET_MNEMONIC));
  });

  it("deployer, relayer, committee, solvers and users are distinct accounts", () => {
    const accounts = devnetAccounts();
    const roles = [
      accounts.deployer,
      accounts.relayer,
      ...accounts.committee,
      ...accounts.solvers,
      ...accounts.users,
    ];
    assert.equal(new Set(roles.map((account) => account.address)).size, roles.length);
    assert.equal(accounts.committee.length, 3);
    assert.ok(accounts.solvers.length >= 2);
  });
});
