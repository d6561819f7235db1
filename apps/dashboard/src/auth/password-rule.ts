export const passwordRule = { minLength: 12, maxLength: 200 } as const;

/** What is wrong with a new password and its confirmation, if anything. */
export function passwordProblem(
  password: string,
  confirm: string,
): { field: "next" | "confirm"; message: string } | undefined {
  if (password.length < passwordRule.minLength)
    return { field: "next", message: `Use at least ${passwordRule.minLength} characters.` };
  if (password.length > passwordRule.maxLength)
    return { field: "next", message: `Use at most ${passwordRule.maxLength} characters.` };
  if (password !== confirm) return { field: "confirm", message: "The two passwords differ." };
  return undefined;
}
