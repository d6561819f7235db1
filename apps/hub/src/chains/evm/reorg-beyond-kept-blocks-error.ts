/** The chain's indexed history differs from the chain below every kept block. */
export class ReorgBeyondKeptBlocksError extends Error {
  constructor(chainDomain: string, watermark: number) {
    super(
      `${chainDomain} reorganised below every kept block (watermark ${watermark}): run \`hub admin reindex --chain ${chainDomain} --from <block>\``,
    );
    this.name = "ReorgBeyondKeptBlocksError";
  }
}
