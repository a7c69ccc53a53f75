/**
 * The corpus of the access leak suite, written into a temp folder at test time: public files,
 * files for `hr`, for `finance`, for both, for nobody, a decoy whose every short field is the
 * query of a public file, and two files whose `access` an update changes. Every labelled file
 * carries canaries (unique strings in its path, title, heading, body, keywords, entities,
 * aliases and domain), so that a leak shows by substring search.
 */
import type { DocumentInterface } from "@langchain/core/documents";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The corpus as first built, and after the update that changes two files' `access`. */
export type CorpusPhase = "initial" | "updated";

/** An `access` label as the file states it: null for a file without the field. */
export type AccessLabel = readonly string[] | null;

/** One Markdown file of the corpus. */
export interface LeakDoc {
  /** Short name the tests use. */
  key: string;
  /** Path below the corpus folder. */
  path: string;
  title: string;
  domain?: string;
  keywords: string[];
  entities: string[];
  aliases: string[];
  heading: string;
  body: string;
  /** Its label when first built. */
  access: AccessLabel;
  /** Its label after the update (undefined: unchanged). */
  accessAfterUpdate?: AccessLabel;
  /** Written as a comma-separated string instead of a YAML list. */
  accessAsString?: boolean;
  /**
   * Strings of this file only: none may appear in anything a scope that cannot read it gets
   * (beyond the caller's own query echoed back).
   */
  canaries: string[];
}

/** The query a public file answers, and every short field of the hr decoy. */
export const DECOY_QUERY = "expense claims deadline";

/** Answers {@link DECOY_QUERY} in its body only: no title, keyword or domain of it matches. */
const PUBLIC_REIMBURSEMENT: LeakDoc = {
  key: "public-reimbursement",
  path: "travel/reimbursement-rules.md",
  title: "Reimbursement Rules",
  domain: "travel",
  keywords: ["reimbursement", "receipts"],
  entities: ["Ledgerly"],
  aliases: [],
  heading: "Filing",
  body: "Expense claims must be filed before the deadline of 30 days after the trip, with every receipt, in the Ledgerly portal.",
  access: null,
  canaries: ["ledgerly", "reimbursement-rules"],
};

const PUBLIC_LAPTOP: LeakDoc = {
  key: "public-laptop",
  path: "it/laptop-setup.md",
  title: "Laptop Setup",
  domain: "it",
  keywords: ["laptop", "imaging"],
  entities: ["Imagebot"],
  aliases: [],
  heading: "First Day",
  body: "New laptops are imaged with Imagebot at the service desk before the first day.",
  access: null,
  canaries: ["imagebot", "laptop-setup"],
};

/** Unlabelled and without a domain. */
const PUBLIC_GLOSSARY: LeakDoc = {
  key: "public-glossary",
  path: "glossary.md",
  title: "Glossary",
  keywords: [],
  entities: [],
  aliases: [],
  heading: "Terms",
  body: "A wordhoard is the list of terms every team shares.",
  access: null,
  canaries: ["wordhoard"],
};

/**
 * Readable by hr only; its title, keywords, entities, aliases and domain are all the words of
 * {@link DECOY_QUERY}. Were its hints counted for other scopes, L1 would be filtered to its
 * domain and the public answer lost.
 */
const HR_DECOY: LeakDoc = {
  key: "hr-decoy",
  path: "expenses/zqdecoypath-deadline.md",
  title: "Expense Claims Deadline",
  domain: DECOY_QUERY,
  keywords: [DECOY_QUERY],
  entities: ["Expense Claims Deadline"],
  aliases: [DECOY_QUERY],
  heading: "Zqdecoyheading Exceptions",
  body: "Expense claims deadline exceptions: zqdecoybody grants staff on leave 90 days.",
  access: ["hr"],
  canaries: ["zqdecoypath", "zqdecoyheading", "zqdecoybody"],
};

/** The only file of the hr-only domain `compensation`. */
const HR_SALARY: LeakDoc = {
  key: "hr-salary",
  path: "compensation/zqsalpath-salary-bands.md",
  title: "Zqsaltitle Salary Bands",
  domain: "compensation",
  keywords: ["zqsalkeyword", "pay grade"],
  entities: ["Zqsalentity Payroll"],
  aliases: ["zqsalalias"],
  heading: "Zqsalheading Levels",
  body: "Band zqsalbody ranges from 40k to 90k; the Zqsalentity Payroll export runs monthly.",
  access: ["hr"],
  canaries: [
    "zqsalpath",
    "zqsaltitle",
    "compensation",
    "zqsalkeyword",
    "zqsalentity",
    "zqsalalias",
    "zqsalheading",
    "zqsalbody",
  ],
};

const FINANCE_BUDGET: LeakDoc = {
  key: "finance-budget",
  path: "treasury/zqfinpath-budget.md",
  title: "Zqfintitle Quarterly Budget",
  // Not a name the schema can offer as an enum value: a scope that reads it gets a free-text domain field.
  domain: "treasury: budgets",
  keywords: ["zqfinkeyword", "forecast"],
  entities: ["Zqfinentity Bank"],
  aliases: ["zqfinalias"],
  heading: "Zqfinheading Forecast",
  body: "The zqfinbody forecast is signed off by the Zqfinentity Bank liaison every quarter.",
  access: ["finance"],
  canaries: [
    "zqfinpath",
    "zqfintitle",
    "treasury",
    "zqfinkeyword",
    "zqfinentity",
    "zqfinalias",
    "zqfinheading",
    "zqfinbody",
  ],
};

/** Labelled `"hr, finance"` (the string form), in the public `travel` domain. */
const SHARED_RELOCATION: LeakDoc = {
  key: "hr-finance-relocation",
  path: "travel/zqbothpath-relocation.md",
  title: "Zqbothtitle Relocation Package",
  domain: "travel",
  keywords: ["zqbothkeyword", "relocation"],
  entities: ["Zqbothentity Movers"],
  aliases: ["zqbothalias"],
  heading: "Zqbothheading Allowance",
  body: "The zqbothbody relocation allowance is paid through Zqbothentity Movers.",
  access: ["hr", "finance"],
  accessAsString: true,
  canaries: [
    "zqbothpath",
    "zqbothtitle",
    "zqbothkeyword",
    "zqbothentity",
    "zqbothalias",
    "zqbothheading",
    "zqbothbody",
  ],
};

/** `access: []`: nobody reads it, in a domain of its own. */
const NOBODY_KEYS: LeakDoc = {
  key: "nobody-keys",
  path: "vault/zqnonepath-root-keys.md",
  title: "Zqnonetitle Root Keys",
  domain: "zqnonedomain",
  keywords: ["zqnonekeyword"],
  entities: ["Zqnoneentity HSM"],
  aliases: ["zqnonealias"],
  heading: "Zqnoneheading Rotation",
  body: "The zqnonebody root keys live in the Zqnoneentity HSM.",
  access: [],
  canaries: [
    "zqnonepath",
    "zqnonetitle",
    "zqnonedomain",
    "zqnonekeyword",
    "zqnoneentity",
    "zqnonealias",
    "zqnoneheading",
    "zqnonebody",
  ],
};

/** Public at first, hr-only after the update, in the public `it` domain. */
const CLOSING_VPN: LeakDoc = {
  key: "closing-vpn",
  path: "it/zqclosepath-vpn.md",
  title: "Zqclosetitle VPN Profiles",
  domain: "it",
  keywords: ["zqclosekeyword"],
  entities: ["Zqcloseentity Gateway"],
  aliases: ["zqclosealias"],
  heading: "Zqcloseheading Install",
  body: "Install the zqclosebody profile from the Zqcloseentity Gateway.",
  access: null,
  accessAfterUpdate: ["hr"],
  canaries: [
    "zqclosepath",
    "zqclosetitle",
    "zqclosekeyword",
    "zqcloseentity",
    "zqclosealias",
    "zqcloseheading",
    "zqclosebody",
  ],
};

/** hr-only at first, in a domain of its own, public after the update. */
const OPENING_LEAVE: LeakDoc = {
  key: "opening-leave",
  path: "leave/zqopenpath-parental-leave.md",
  title: "Zqopentitle Parental Leave",
  domain: "zqopendomain",
  keywords: ["zqopenkeyword"],
  entities: ["Zqopenentity Fund"],
  aliases: ["zqopenalias"],
  heading: "Zqopenheading Weeks",
  body: "Parents get zqopenbody weeks paid by the Zqopenentity Fund.",
  access: ["hr"],
  accessAfterUpdate: null,
  canaries: [
    "zqopenpath",
    "zqopentitle",
    "zqopendomain",
    "zqopenkeyword",
    "zqopenentity",
    "zqopenalias",
    "zqopenheading",
    "zqopenbody",
  ],
};

/** Every file of the corpus. */
export const LEAK_DOCS: readonly LeakDoc[] = [
  PUBLIC_REIMBURSEMENT,
  PUBLIC_LAPTOP,
  PUBLIC_GLOSSARY,
  HR_DECOY,
  HR_SALARY,
  FINANCE_BUDGET,
  SHARED_RELOCATION,
  NOBODY_KEYS,
  CLOSING_VPN,
  OPENING_LEAVE,
];

export const DOC = {
  publicReimbursement: PUBLIC_REIMBURSEMENT,
  publicLaptop: PUBLIC_LAPTOP,
  publicGlossary: PUBLIC_GLOSSARY,
  hrDecoy: HR_DECOY,
  hrSalary: HR_SALARY,
  financeBudget: FINANCE_BUDGET,
  sharedRelocation: SHARED_RELOCATION,
  nobodyKeys: NOBODY_KEYS,
  closingVpn: CLOSING_VPN,
  openingLeave: OPENING_LEAVE,
} as const;

/** The label of `doc` in `phase`. */
export function accessIn(doc: LeakDoc, phase: CorpusPhase): AccessLabel {
  return phase === "updated" && doc.accessAfterUpdate !== undefined ? doc.accessAfterUpdate : doc.access;
}

/** What the knowledge base makes of a file without `access`. */
export type Unlabelled = "allow" | "deny";

/**
 * Whether a lookup of `groups` (null: unscoped) may read `doc`: the model of the rule the
 * suite checks the library against.
 */
export function mayRead(
  doc: LeakDoc,
  groups: readonly string[] | null,
  phase: CorpusPhase,
  unlabelled: Unlabelled = "allow",
): boolean {
  if (groups === null) return true;
  const label = accessIn(doc, phase);
  return label === null ? unlabelled === "allow" : label.some((group) => groups.includes(group));
}

const yamlList = (items: readonly string[]) => `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;

/** The Markdown text of `doc` in `phase`. */
export function markdownOf(doc: LeakDoc, phase: CorpusPhase): string {
  const label = accessIn(doc, phase);
  const lines = ["---", `title: ${JSON.stringify(doc.title)}`];
  if (doc.domain !== undefined) lines.push(`domain: ${JSON.stringify(doc.domain)}`);
  if (doc.keywords.length > 0) lines.push(`keywords: ${yamlList(doc.keywords)}`);
  if (doc.entities.length > 0) lines.push(`entities: ${yamlList(doc.entities)}`);
  if (doc.aliases.length > 0) lines.push(`aliases: ${yamlList(doc.aliases)}`);
  if (label !== null) lines.push(`access: ${doc.accessAsString ? JSON.stringify(label.join(", ")) : yamlList(label)}`);
  lines.push("---", `# ${doc.title}`, "", `## ${doc.heading}`, "", doc.body, "");
  return lines.join("\n");
}

/**
 * The corpus as LangChain documents, one per file: the Markdown body without frontmatter as page
 * content, and title, domain, keywords, entities, aliases and access (the groups) as metadata, so
 * that a knowledge base built from them has the chunks, sources and labels of the folder.
 */
export function leakDocuments(phase: CorpusPhase, docs: readonly LeakDoc[] = LEAK_DOCS): DocumentInterface[] {
  return docs.map((doc) => {
    const label = accessIn(doc, phase);
    return {
      pageContent: [`# ${doc.title}`, "", `## ${doc.heading}`, "", doc.body, ""].join("\n"),
      metadata: {
        source: doc.path,
        title: doc.title,
        ...(doc.domain !== undefined ? { domain: doc.domain } : {}),
        keywords: doc.keywords,
        entities: doc.entities,
        aliases: doc.aliases,
        ...(label !== null ? { access: doc.accessAsString ? label.join(", ") : label } : {}),
      },
    };
  });
}

/** Writes the files of the corpus (`docs`: a part of it) in `phase` below `dir`. */
export async function writeLeakCorpus(
  dir: string,
  phase: CorpusPhase,
  docs: readonly LeakDoc[] = LEAK_DOCS,
): Promise<void> {
  for (const doc of docs) {
    const path = join(dir, doc.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, markdownOf(doc, phase));
  }
}

/** One adversarial query aimed at one file. */
export interface AttackQuery {
  /** What the query is made of, for failure messages. */
  label: string;
  query: string;
  /** The file it aims at. */
  target: LeakDoc;
}

/**
 * The queries that would surface `doc` if anything of it leaked: its title verbatim, its
 * keywords, entities, aliases, domain name, heading and body words.
 */
export function attackQueries(doc: LeakDoc): AttackQuery[] {
  const queries: [string, string][] = [
    ["title", doc.title],
    ["keywords", doc.keywords.join(" ")],
    ["entities", doc.entities.join(" ")],
    ["aliases", doc.aliases.join(" ")],
    ["domain", doc.domain ?? ""],
    ["heading", doc.heading],
    ["body", doc.body],
  ];
  return queries
    .filter(([, query]) => query.trim().length > 0)
    .map(([label, query]) => ({ label: `${doc.key} ${label}`, query, target: doc }));
}

/** The labelled files (and the file that becomes labelled): what every attack aims at. */
export const ATTACKED_DOCS = LEAK_DOCS.filter((doc) => doc.access !== null || doc.accessAfterUpdate !== undefined);

/** One query naming every file's canaries and titles: with `limit: 20` it asks for everything. */
export const KITCHEN_SINK_QUERY = [
  DECOY_QUERY,
  ...LEAK_DOCS.flatMap((doc) => [doc.title, ...doc.canaries.filter((canary) => !canary.includes("-"))]),
].join(" ");
