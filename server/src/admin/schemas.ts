// Response shapes of the dashboard's own routes. Declared once: they validate
// nothing coming in, but they filter what goes out (an undeclared field never
// leaks) and they feed the OpenAPI document the web client is generated from.
import { Type } from 'typebox';
import { DateTime, StringEnum, View } from '../core/schema.js';

export const SummarySchema = View(
  {
    users: Type.Integer(),
    files: Type.Integer(),
    storage_used: Type.Integer({ description: 'bytes' }),
    shares: Type.Integer(),
    oauth_apps: Type.Integer(),
    active_sessions: Type.Integer(),
    version: Type.String(),
    database: StringEnum(['sqlite', 'postgres']),
    storage_driver: Type.String(),
    days: Type.Array(View({ date: Type.String({ description: 'YYYY-MM-DD, UTC' }), sign_ups: Type.Integer(), uploads: Type.Integer() }, { title: 'SummaryDay' })),
  },
  { title: 'AdminSummary' },
);

export const GroupSchema = View(
  {
    id: Type.Integer(),
    name: Type.String(),
    is_admin: Type.Boolean(),
    storage_quota: Type.Integer({ description: 'bytes; 0 = no storage' }),
    max_versions: Type.Integer({ description: 'file versions kept per file; 0 = none' }),
    version_days: Type.Integer({ description: 'days a version is kept after it was replaced' }),
    user_count: Type.Integer(),
    created_at: DateTime,
  },
  { title: 'Group' },
);
