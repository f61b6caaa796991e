// Sharing with people and groups (api-contract §13; docs/api.md "Sharing with people").
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Body, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';
import { Path, READ, WRITE } from '../files/schemas.js';
import type { AccessService } from './service.js';
import type { RecipientSuggestions } from './suggest.js';
import { NO_CONTROL } from '../http/schemas.js';

const Permission = StringEnum(['read', 'write']);
const GrantView = View(
  {
    id: Type.String(),
    user: Type.Optional(View({ id: Type.String(), email: Type.String(), nickname: Type.String() }, { title: 'GrantUser' })),
    group: Type.Optional(View({ id: Type.Integer(), name: Type.String() }, { title: 'GrantGroup' })),
    permission: Permission,
    reshare: Type.Boolean({ description: 'the recipient may share the item in turn (with at most their permission)' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'FileAccessGrant' },
);
const SharedItemView = View(
  {
    id: Type.String({ description: 'the grant id' }),
    name: Type.String(),
    type: StringEnum(['file', 'folder']),
    path: Type.String({ description: 'how the recipient addresses it in every file route: /Shared with me/<owner nickname> – <name>' }),
    permission: Permission,
    reshare: Type.Boolean(),
    owner: View({ id: Type.String(), nickname: Type.String(), email: Type.String() }, { title: 'SharedWithMeOwner' }),
    created_at: Type.String({ format: 'date-time' }),
    new: Type.Boolean({ description: 'granted since the recipient last marked the list seen' }),
  },
  { title: 'SharedWithMeItem' },
);

const GivenGrantView = View(
  {
    ...GrantView.properties,
    item: View(
      {
        id: Type.String(),
        name: Type.String(),
        type: StringEnum(['file', 'folder']),
        path: Nullable('string', { description: "where the person finds it (their own path, or /Shared with me/… for a reshare); null while it is in the trash" }),
      },
      { title: 'GrantedItem' },
    ),
  },
  { title: 'GivenGrant' },
);

const SuggestionsView = View(
  {
    people: Type.Array(View({ id: Type.String(), email: Type.String(), nickname: Type.String() }, { title: 'RecipientPerson' }), { maxItems: 8 }),
    groups: Type.Array(View({ id: Type.Integer(), name: Type.String() }, { title: 'RecipientGroup' }), { maxItems: 8 }),
  },
  { title: 'RecipientSuggestions' },
);

export function accessRoutes(app: FastifyInstance, access: AccessService, suggestions: RecipientSuggestions): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/file/access/suggest',
    {
      config: WRITE,
      schema: {
        description:
          "People and groups the user may share with, for the share dialog's recipient field: people of the user's own group whose e-mail or nickname starts with `q`, and anyone else only by their exact e-mail or UID (the grant's rule, so nothing beyond it is listed); groups whose name starts with `q` (only one's own with share_with: groups). At most 8 of each. 429 after 200 exact lookups in an hour.",
        querystring: Type.Object({ q: Type.String({ minLength: 1, maxLength: 320, pattern: NO_CONTROL }) }),
        response: { 200: Envelope(SuggestionsView), ...errors(403, 429) },
      },
    },
    async (request) => ok(await suggestions.suggest(requireAuth(request).user.id, request.query.q)),
  );

  r.put(
    '/api/v4/file/access',
    {
      config: WRITE,
      schema: {
        description: 'Gives a user (e-mail or UID) or a group read or write access to a file or folder; a second grant to the same recipient changes the permission. 429 after 100 grants in an hour.',
        body: Body({
          path: Path,
          user: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
          group: Type.Optional(Type.Integer({ minimum: 1 })),
          permission: Permission,
          reshare: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Envelope(GrantView), ...errors(403, 404, 429) },
      },
    },
    async (request) => ok(await access.grant(requireAuth(request).user.id, request.body)),
  );

  r.get(
    '/api/v4/file/access',
    {
      config: READ,
      schema: { description: 'Who has access to a file or folder (its owner asks).', querystring: Type.Object({ path: Path }), response: { 200: Envelope(Type.Array(GrantView)), ...errors(403, 404) } },
    },
    async (request) => ok(await access.list(requireAuth(request).user.id, request.query.path)),
  );

  r.delete(
    '/api/v4/file/access/:id',
    {
      config: WRITE,
      schema: { description: 'Revokes a grant at once, on every instance.', params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) }), response: { 200: Envelope(Type.Null()), ...errors(404) } },
    },
    async (request) => {
      await access.revoke(requireAuth(request).user.id, request.params.id);
      return ok(null);
    },
  );

  r.get(
    '/api/v4/file/access/given',
    {
      config: READ,
      schema: {
        description: '"Shared by me": every grant on the user\'s own items (and those they made as a resharer), newest first, at most 1000, each with its item. Change a permission with PUT /file/access, revoke with DELETE /file/access/:id.',
        response: { 200: Envelope(Type.Array(GivenGrantView)) },
      },
    },
    async (request) => ok(await access.given(requireAuth(request).user.id)),
  );

  r.get(
    '/api/v4/file/shared',
    { config: READ, schema: { description: 'What others shared with the user, oldest grant first.', response: { 200: Envelope(Type.Array(SharedItemView)) } } },
    async (request) => ok(await access.sharedWith(requireAuth(request).user.id)),
  );

  r.post(
    '/api/v4/file/shared/seen',
    { config: READ, schema: { description: 'Marks everything shared so far as seen (the web app\'s badge).', response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      await access.markSeen(requireAuth(request).user.id);
      return ok(null);
    },
  );
}
