// `search status` and `search reindex`: the content index's admin tools
// (the same as GET /admin/search/status and POST /admin/search/reindex).
import type { CommandSpec } from './command.js';
import { CommandError } from './errors.js';
import { auditCliAction, withServices } from './services.js';
import type { Services } from '../services.js';

async function printStatus(s: Services, out: (line: string) => void): Promise<void> {
  const st = await s.search.content.status();
  out(`indexed ${st.indexed}, pending ${st.pending}, failed ${st.failed}, skipped ${st.skipped}`);
  for (const f of st.recent_failures) out(`  failed: ${f.name ?? '(no current file)'}: ${f.reason} (${f.at})`);
}

const status: CommandSpec = {
  words: ['search', 'status'],
  summary: 'content search: how many documents are indexed, pending and failed, and the latest failures',
  options: {},
  async run({ config, out }) {
    await withServices(config, (s) => printStatus(s, out));
  },
};

const reindex: CommandSpec = {
  words: ['search', 'reindex'],
  summary: "extract the text of every document again (or of one person's files); running servers do the work",
  options: {
    user: { type: 'string', value: '<UID|e-mail>', help: "only this person's files" },
    wait: { type: 'boolean', help: 'do the extraction in this process and return when nothing is pending' },
  },
  async run({ config, values, out }) {
    await withServices(config, async (s) => {
      let userId: string | undefined;
      if (typeof values.user === 'string') {
        const user = await s.accounts.findByLogin(values.user);
        if (!user) throw new CommandError(`no user ${values.user}`);
        userId = user.id;
      }
      const queued = await s.search.content.reindex(userId);
      auditCliAction(s, { action: 'admin.search_reindex_requested', targetType: 'search', targetId: userId ?? '', detail: { documents: queued } });
      out(`Queued ${queued} documents for extraction.`);
      if (values.wait) {
        while ((await s.search.content.status()).pending > 0) await s.search.indexNow();
        await printStatus(s, out);
      }
    });
  },
};

export const searchCommands: CommandSpec[] = [status, reindex];
