import { z } from "zod";

/** Default page size of GET /orders. */
export const LIST_ORDERS_DEFAULT_LIMIT = 50;
/** Largest page size of GET /orders. */
export const LIST_ORDERS_MAX_LIMIT = 100;

/** The query parameters of GET /orders, in validation order. */
export const listOrdersQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,512}$/, "must be a nextCursor value from an earlier page")
    .max(512)
    .optional()
    .describe("Opaque: the nextCursor of the previous page. Absent for the first page."),
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, "must be an integer from 1 to 100")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(LIST_ORDERS_MAX_LIMIT, "must be at most 100"))
    .default(LIST_ORDERS_DEFAULT_LIMIT)
    .describe("Page size, 1 to 100, default 50."),
});

/** GET /orders query as decoded. */
export type ListOrdersQuery = z.output<typeof listOrdersQuerySchema>;
