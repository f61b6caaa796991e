// Which browser tests run on PostgreSQL too. The browser suite runs once, on
// SQLite; a browser test is repeated on PostgreSQL only when what it shows
// depends on the database. Everything else a browser test drives is also
// tested at the HTTP level on both databases (docs/testing.md).
// A file listed here: the reason is what differs between the dialects.
export const BOTH_DATABASES = {
  'natural-order.test.ts': 'the order of the list is the database\'s (sort_key compared with collate "C" on PostgreSQL, byte order on SQLite)',
  'files-extras.test.ts': 'the list sorted by the server from the column headers: keyset paging in SQL on each dialect',
  'files-app.test.ts': 'search in the file manager: name matching (LIKE and case folding) is written per dialect',
  'feed-live.test.ts': 'the change feed reaches an open page through the database (events table, polling and notifications differ per dialect)',
  'sharing-live.test.ts': 'a recipient\'s feed is computed by the audience queries, per dialect',
  'team-folders-ui.test.ts': 'team folders are resolved by joins on the group tables (teams/ repository), per dialect',
  'device.test.ts': 'the device grant\'s polling goes through the token endpoint\'s batched statements on PostgreSQL and group commit on SQLite',
};
