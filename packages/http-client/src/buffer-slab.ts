/** Pieces up to this size are cut from the shared slab; larger ones get their own buffer. */
const SLAB_PIECE_MAX_BYTES = 8 * 1024;
const SLAB_BYTES = 64 * 1024;

/**
 * Buffers for small HTTP bodies: pieces of one 64 KiB slab, a new slab when it is used up. Node's own
 * pool is 8 KiB, so a 2 KiB catalog answer cost an ArrayBuffer allocation every fourth call; as with
 * that pool, a piece keeps its slab alive only while the piece itself is held. A piece's bytes are
 * uninitialised, as `Buffer.allocUnsafe`'s are: its taker writes every one.
 */
export class BufferSlab {
  private slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  private used = 0;

  take(size: number): Buffer {
    if (size > SLAB_PIECE_MAX_BYTES) return Buffer.allocUnsafe(size);
    if (this.used + size > SLAB_BYTES) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.used = 0;
    }
    const piece = this.slab.subarray(this.used, this.used + size);
    // Pieces start 8-byte aligned, as Node's pool aligns them.
    this.used = (this.used + size + 7) & ~7;
    return piece;
  }
}
