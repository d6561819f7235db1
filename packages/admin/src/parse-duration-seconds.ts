const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** `30d`, `12h`, `90m`, `45s` to seconds; undefined for anything else. */
export function parseDurationSeconds(value: string): number | undefined {
  const match = /^([1-9][0-9]{0,9})([smhd])$/.exec(value);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}
