import type { SqlExecutor } from "@hub/store";

/** The quotes table's rows of one quote id, every column as the driver returns it. */
export function readQuoteRows<Row extends object = Record<string, unknown>>(
  sql: SqlExecutor,
  quoteId: string,
): Promise<Row[]> {
  return sql.query<Row>("SELECT * FROM quotes WHERE quote_id = $1", [quoteId]);
}

/** Every stored quote. */
export async function countQuotes(sql: SqlExecutor): Promise<number> {
  const [row] = await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM quotes");
  return row?.n ?? -1;
}

/** The quotes stored under one preparationId, any organization. */
export function listPreparedQuoteIds(
  sql: SqlExecutor,
  preparationId: string,
): Promise<Array<{ quote_id: string }>> {
  return sql.query<{ quote_id: string }>("SELECT quote_id FROM quotes WHERE preparation_id = $1", [
    preparationId,
  ]);
}

/** Changes the deposit amount in a stored open-flow template, as a tampered row would carry it. */
export async function tamperDepositAmount(sql: SqlExecutor, quoteId: string, amount: string): Promise<void> {
  await sql.query(
    `UPDATE quotes SET template = jsonb_set(template, '{deposit,amount}', $2::jsonb) WHERE quote_id = $1`,
    [quoteId, JSON.stringify(amount)],
  );
}
