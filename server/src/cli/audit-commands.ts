// `audit verify` and `audit export`: the audit log's chain check and a copy
// of its rows (the same as POST /admin/audit/verify and GET /admin/audit/export).
import type { CommandSpec } from './command.js';
import { CommandError, UsageError } from './errors.js';
import { withServices } from './services.js';
import { csvHeader, csvLine, toAuditView } from '../audit/views.js';

const verify: CommandSpec = {
  words: ['audit', 'verify'],
  summary: 'walk the audit log\'s hash chain: exit 0 when intact, 1 naming the first row changed or missing',
  options: {},
  async run({ config, out }) {
    await withServices(config, async (s) => {
      const result = await s.audit.verify();
      if (!result.ok) throw new CommandError(`audit chain broken at seq ${result.first_bad_seq} (${result.checked} rows before it are intact)`);
      out(`audit chain intact: ${result.checked} rows checked`);
    });
  },
};

const exportRows: CommandSpec = {
  words: ['audit', 'export'],
  summary: 'print every audit row, oldest first, as JSON lines (default) or CSV',
  options: {
    format: { type: 'string', value: 'jsonl|csv', help: 'the output format (default jsonl)' },
  },
  async run({ config, values, out }) {
    const format = (values.format as string | undefined) ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'csv') throw new UsageError('--format: jsonl or csv', 'audit export');
    await withServices(config, async (s) => {
      if (format === 'csv') out(csvHeader().trimEnd());
      for await (const row of s.audit.rows({})) out(format === 'csv' ? csvLine(row).trimEnd() : JSON.stringify(toAuditView(row)));
    });
  },
};

export const auditCommands: CommandSpec[] = [verify, exportRows];
