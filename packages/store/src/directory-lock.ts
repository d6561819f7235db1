import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

/** The embedded database is open in another live process. */
export class DirectoryInUseError extends Error {
  override readonly name = "DirectoryInUseError";
  constructor(
    readonly path: string,
    readonly holderPid: number,
  ) {
    super(`the embedded database ${path} is in use by process ${holderPid}`);
  }
}

export interface DirectoryLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes an exclusive lock file holding this pid; a lock left by a dead process is taken over. */
export function acquireDirectoryLock(path: string): DirectoryLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(path, "utf8") === String(process.pid)) unlinkSync(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(path, "utf8"));
      } catch {
        continue;
      }
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new DirectoryInUseError(path.replace(/\.lock$/, ""), holder);
      }
      try {
        unlinkSync(path);
      } catch {
        // Another opener removed the stale lock first; the next attempt decides.
      }
    }
  }
  throw new Error(`could not take the lock ${path}`);
}
