// A real OpenLDAP server for tests (Debian's slapd): started as the current
// user in a temp dir on a free loopback port, mdb backend, loaded with
// slapadd from a small tree (ou=people with inetOrgPerson entries and
// passwords hashed by slappasswd, ou=groups with groupOfNames/member);
// `modify` runs ldapmodify as the directory's root to change it mid-test.
//
//   const dir = await startSlapd({ people: [{ uid: 'alice', mail: 'alice@example.org', cn: 'Alice', password: 'pw' }], groups: [{ cn: 'staff', members: ['alice'] }] });
//   ... provider { url: dir.url, bind_dn: dir.rootDn, bind_password: dir.rootPassword, user_base: dir.peopleDn, group_base: dir.groupsDn } ...
//   await dir.modify(`dn: cn=staff,${dir.groupsDn}\nchangetype: modify\ndelete: member\nmember: ${dir.personDn('alice')}\n`);
//   await dir.close();
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../src/ops/free-port.js';

const run = promisify(execFile);
const SLAPD = '/usr/sbin/slapd';

/** The skip reason for a directory test on a machine without slapd (a plain `npm test`; .ci/run installs it). */
export const slapdSkip: string | false = existsSync(SLAPD) && existsSync('/usr/sbin/slappasswd') ? false : 'slapd missing (.ci/run installs slapd and ldap-utils)';

export interface DirectoryPersonSeed {
  uid: string;
  mail: string;
  cn: string;
  password: string;
}

export interface DirectoryGroupSeed {
  cn: string;
  members: string[];
}

export interface Slapd {
  url: string;
  port: number;
  suffix: string;
  rootDn: string;
  rootPassword: string;
  peopleDn: string;
  groupsDn: string;
  personDn(uid: string): string;
  /** ldapmodify as the root DN (an LDIF of changes, RFC 2849). */
  modify(ldif: string): Promise<void>;
  /** Stops the server (the data stays) — to test a directory that is down. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

async function hash(password: string): Promise<string> {
  const { stdout } = await run('/usr/sbin/slappasswd', ['-s', password]);
  return stdout.trim();
}

async function waitForPort(port: number, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('slapd did not start');
}

export async function startSlapd(seed: { people: DirectoryPersonSeed[]; groups: DirectoryGroupSeed[]; suffix?: string }): Promise<Slapd> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-slapd-'));
  const suffix = seed.suffix ?? 'dc=example,dc=org';
  const rootDn = `cn=admin,${suffix}`;
  const rootPassword = 'directory-root-secret';
  const peopleDn = `ou=people,${suffix}`;
  const groupsDn = `ou=groups,${suffix}`;
  const personDn = (uid: string) => `uid=${uid},${peopleDn}`;
  mkdirSync(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      `pidfile ${dir}/slapd.pid`,
      `argsfile ${dir}/slapd.args`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      'maxsize 10485760',
      `suffix "${suffix}"`,
      `rootdn "${rootDn}"`,
      `rootpw ${await hash(rootPassword)}`,
      `directory ${dir}/db`,
      'access to attrs=userPassword by self =xw by anonymous auth by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  const dc = /^dc=([^,]+)/.exec(suffix)![1];
  const entries = [
    `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: ${dc}\no: Example\n`,
    `dn: ${peopleDn}\nobjectClass: organizationalUnit\nou: people\n`,
    `dn: ${groupsDn}\nobjectClass: organizationalUnit\nou: groups\n`,
  ];
  for (const p of seed.people) {
    entries.push(
      `dn: ${personDn(p.uid)}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.cn}\nsn: ${p.cn.split(' ').pop()}\nmail: ${p.mail}\nuserPassword: ${await hash(p.password)}\n`,
    );
  }
  for (const g of seed.groups) {
    // groupOfNames needs at least one member: the root DN stands in for an empty group.
    const members = g.members.length > 0 ? g.members.map(personDn) : [rootDn];
    entries.push(`dn: cn=${g.cn},${groupsDn}\nobjectClass: groupOfNames\ncn: ${g.cn}\n${members.map((m) => `member: ${m}`).join('\n')}\n`);
  }
  const ldif = path.join(dir, 'tree.ldif');
  writeFileSync(ldif, entries.join('\n'));
  await run('/usr/sbin/slapadd', ['-f', conf, '-l', ldif]);

  const port = await freePort('127.0.0.1');
  const url = `ldap://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    // -d 0: stay in the foreground (the test owns the process) and log nothing.
    const c = spawn(SLAPD, ['-h', `${url}/`, '-f', conf, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child = c;
    try {
      await waitForPort(port, c, 10_000);
    } catch (err) {
      c.kill('SIGKILL');
      throw new Error(`${(err as Error).message}: ${stderr}`);
    }
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    url,
    port,
    suffix,
    rootDn,
    rootPassword,
    peopleDn,
    groupsDn,
    personDn,
    async modify(changes) {
      const file = path.join(dir, `change-${Date.now()}-${Math.random().toString(36).slice(2)}.ldif`);
      writeFileSync(file, changes);
      await run('/usr/bin/ldapmodify', ['-x', '-H', url, '-D', rootDn, '-w', rootPassword, '-f', file]);
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
