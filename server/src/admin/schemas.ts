// Response shapes of the dashboard's own routes. Declared once: they validate
// nothing coming in, but they filter what goes out (an undeclared field never
// leaks) and they feed the OpenAPI document the web client is generated from.
import { Type, type TSchema } from 'typebox';

export const okEnvelope = <T extends TSchema>(data: T) => Type.Object({ code: Type.Integer({ description: '0 on success' }), data, msg: Type.String() });

export const SummarySchema = Type.Object({
  users: Type.Integer(),
  files: Type.Integer(),
  storage_used: Type.Integer({ description: 'bytes' }),
  shares: Type.Integer(),
  oauth_apps: Type.Integer(),
  active_sessions: Type.Integer(),
  version: Type.String(),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  storage_driver: Type.String(),
  days: Type.Array(Type.Object({ date: Type.String(), sign_ups: Type.Integer(), uploads: Type.Integer() })),
});

export const GroupSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  is_admin: Type.Boolean(),
  storage_quota: Type.Integer({ description: 'bytes; 0 = no storage' }),
  user_count: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
});
