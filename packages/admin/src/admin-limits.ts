/** The bounds the admin verbs hold their input to. */
export const adminLimits = {
  /** A key's longest lifetime: 10 years. */
  maxKeyLifetimeSeconds: 10 * 365 * 24 * 3600,
  maxOrganizationPage: 500,
  maxKeyLabelLength: 100,
  /** How long a dashboard invite link can be used: 24 hours. */
  inviteLifetimeSeconds: 24 * 3600,
  maxReservationPage: 500,
  maxAuditPage: 500,
  /** A week of hourly usage. */
  maxUsageHours: 7 * 24,
  /** Per-key usage by day: what the API keys page shows (rows are kept 35 days by default). */
  maxKeyUsageDays: 30,
} as const;
