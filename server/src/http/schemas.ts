// Request shapes shared by several features. Every body, query and param is
// validated against a schema before a handler runs.
import { Type } from 'typebox';

/** No C0 control characters or DEL (so no NUL bytes). */
export const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
export const Password = Type.String({ minLength: 8, maxLength: 128, pattern: '^[^\\u0000]*$' });
/** For checking an existing password: any length up to the maximum, so old passwords still work. */
export const AnyPassword = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000]*$' });
export const Nickname = Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL });
export const Otp = Type.String({ pattern: '^[0-9]{6}$' });
export const Jwt = Type.String({ minLength: 1, maxLength: 8192 });

/** Largest value of a 32-bit INTEGER column (PostgreSQL `integer`): group ids. */
export const INT32_MAX = 2_147_483_647;
export const GroupId = Type.Integer({ minimum: 1, maximum: INT32_MAX });

/**
 * The body of an admin list (POST …/admin/<things>): a page, an optional
 * search keyword and one of the sort fields the list allows.
 */
export function AdminListBody<F extends string>(orderFields: readonly [F, ...F[]], extra: Record<string, ReturnType<typeof Type.Optional>> = {}) {
  return Type.Object(
    {
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      keyword: Type.Optional(Type.String({ maxLength: 128, pattern: NO_CONTROL })),
      order_by: Type.Optional(Type.Union(orderFields.map((f) => Type.Literal(f)))),
      order_direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      ...extra,
    },
    { additionalProperties: false },
  );
}
