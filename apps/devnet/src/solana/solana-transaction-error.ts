import type { FailedTransactionMetadata } from "litesvm";

/** A TransactionError as Solana's RPC serializes it: "BlockhashNotFound", {"InstructionError":[0,{"Custom":1}]}, … */
export type SolanaTransactionError = string | Record<string, unknown>;

// The names of litesvm's fieldless enums, in their declaration order (their numeric values).
const transactionErrorNames =
  "AccountInUse AccountLoadedTwice AccountNotFound ProgramAccountNotFound InsufficientFundsForFee InvalidAccountForFee AlreadyProcessed BlockhashNotFound CallChainTooDeep MissingSignatureForFee InvalidAccountIndex SignatureFailure InvalidProgramForExecution SanitizeFailure ClusterMaintenance AccountBorrowOutstanding WouldExceedMaxBlockCostLimit UnsupportedVersion InvalidWritableAccount WouldExceedMaxAccountCostLimit WouldExceedAccountDataBlockLimit TooManyAccountLocks AddressLookupTableNotFound InvalidAddressLookupTableOwner InvalidAddressLookupTableData InvalidAddressLookupTableIndex InvalidRentPayingAccount WouldExceedMaxVoteCostLimit WouldExceedAccountDataTotalLimit MaxLoadedAccountsDataSizeExceeded ResanitizationNeeded InvalidLoadedAccountsDataSizeLimit UnbalancedTransaction ProgramCacheHitMaxLimit CommitCancelled".split(
    " ",
  );
const instructionErrorNames =
  "GenericError InvalidArgument InvalidInstructionData InvalidAccountData AccountDataTooSmall InsufficientFunds IncorrectProgramId MissingRequiredSignature AccountAlreadyInitialized UninitializedAccount UnbalancedInstruction ModifiedProgramId ExternalAccountLamportSpend ExternalAccountDataModified ReadonlyLamportChange ReadonlyDataModified DuplicateAccountIndex ExecutableModified RentEpochModified NotEnoughAccountKeys AccountDataSizeChanged AccountNotExecutable AccountBorrowFailed AccountBorrowOutstanding DuplicateAccountOutOfSync InvalidError ExecutableDataModified ExecutableLamportChange ExecutableAccountNotRentExempt UnsupportedProgramId CallDepth MissingAccount ReentrancyNotAllowed MaxSeedLengthExceeded InvalidSeeds InvalidRealloc ComputationalBudgetExceeded PrivilegeEscalation ProgramEnvironmentSetupFailure ProgramFailedToComplete ProgramFailedToCompile Immutable IncorrectAuthority AccountNotRentExempt InvalidAccountOwner ArithmeticOverflow UnsupportedSysvar IllegalOwner MaxAccountsDataAllocationsExceeded MaxAccountsExceeded MaxInstructionTraceLengthExceeded BuiltinProgramsMustConsumeComputeUnits BorshIoError".split(
    " ",
  );

type LitesvmTransactionError = ReturnType<FailedTransactionMetadata["err"]>;

function instructionError(err: unknown): SolanaTransactionError {
  if (typeof err === "number") return instructionErrorNames[err] ?? `InstructionError${err}`;
  if (err && typeof err === "object" && "code" in err) return { Custom: (err as { code: number }).code };
  if (err && typeof err === "object" && "msg" in err) return { BorshIoError: (err as { msg: string }).msg };
  return "GenericError";
}

/** litesvm's error object in the JSON form a Solana node gives it. */
export function solanaTransactionError(err: LitesvmTransactionError): SolanaTransactionError {
  if (typeof err === "number") return transactionErrorNames[err] ?? "SanitizeFailure";
  switch (err.constructor.name) {
    case "TransactionErrorInstructionError": {
      const withInner = err as { index: number; err(): unknown };
      return { InstructionError: [withInner.index, instructionError(withInner.err())] };
    }
    case "TransactionErrorDuplicateInstruction":
      return { DuplicateInstruction: (err as { index: number }).index };
    case "TransactionErrorInsufficientFundsForRent":
      return { InsufficientFundsForRent: { account_index: (err as { accountIndex: number }).accountIndex } };
    default:
      return {
        ProgramExecutionTemporarilyRestricted: {
          account_index: (err as { accountIndex: number }).accountIndex,
        },
      };
  }
}

const fieldlessTexts: Record<string, string> = {
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  InsufficientFundsForFee: "Insufficient funds for fee",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  SignatureFailure: "Transaction did not pass signature verification",
};

/** The sentence a node puts after "Transaction simulation failed: ". */
export function describeTransactionError(err: SolanaTransactionError): string {
  if (typeof err === "string") return fieldlessTexts[err] ?? err;
  if ("InstructionError" in err) {
    const [index, inner] = err.InstructionError as [number, SolanaTransactionError];
    const text =
      typeof inner === "object" && "Custom" in inner
        ? `custom program error: 0x${(inner.Custom as number).toString(16)}`
        : typeof inner === "string"
          ? inner
          : JSON.stringify(inner);
    return `Error processing Instruction ${index}: ${text}`;
  }
  return JSON.stringify(err);
}
