// The admin view of the index, shared by the route and the OpenAPI document.
import { Type } from 'typebox';
import { DateTime, Nullable, View } from '../http/contract.js';

export const SearchStatusSchema = View(
  {
    indexed: Type.Integer({ description: 'Documents whose text is searchable' }),
    pending: Type.Integer({ description: 'Documents waiting for extraction' }),
    failed: Type.Integer({ description: 'Documents no extractor could read (each counted once, not retried)' }),
    skipped: Type.Integer({ description: 'Files of types that hold no text (images, archives)' }),
    recent_failures: Type.Array(
      Type.Object({ name: Nullable('string'), reason: Type.String(), at: DateTime }),
      { description: 'The latest failures, newest first' },
    ),
  },
  { title: 'SearchStatus' },
);
