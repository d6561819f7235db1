/** The row of a statement that always answers one (an insert's RETURNING, a read of a row just written). */
export function requiredRow<Row>(row: Row | undefined, statement: string): Row {
  if (row === undefined) throw new Error(`${statement} answered no row`);
  return row;
}
