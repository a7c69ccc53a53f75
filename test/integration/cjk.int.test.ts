import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateAndSave } from "../../src/cli/index-build.js";
import { createLookupKnowledgeTool, createRetrievalGraph, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { TOKENIZER_VERSION } from "../../src/text/tokenize.js";
import { createTempDirs, expectLookupError } from "./helpers/integration-fixtures.js";

/**
 * A small corpus in Chinese, Japanese, Korean and English. Each target document shares its topic's
 * words with a distractor of the same language (expense approval vs refund approval, sick leave vs
 * annual leave, deploying vs rolling back), so a query must find its document by its own words.
 */
const CORPUS: Record<string, string> = {
  "zh/refund-approval.md": `---
title: 退款审批流程
domain: finance
---
客户提交退款申请后，由财务经理负责审批。金额超过五千元的退款还须经财务总监批准。审批通过后，款项在三个工作日内退回原支付账户。
`,
  "zh/expense-claims.md": `---
title: 费用报销
domain: finance
---
员工出差产生的费用，须在一个月内提交报销单，由部门经理审批。报销款随当月工资发放。
`,
  "zh/annual-leave.md": `---
title: 年假结转规则
domain: hr
---
员工当年未休完的年假，最多可结转五天到下一年度。结转的年假须在次年三月底前休完，逾期作废。
`,
  "zh/sick-leave.md": `---
title: 病假
domain: hr
---
员工请病假须提供医院证明。病假期间按基本工资的百分之八十发放工资，病假天数不能结转。
`,
  "ja/rollback.md": `---
title: ロールバック手順
domain: deployment
---
本番環境へのリリースで障害が起きたときは、直前のバージョンにロールバックします。デプロイツールで前のバージョンを選び、再デプロイしてください。
`,
  "ja/deploy.md": `---
title: デプロイ手順
domain: deployment
---
新しいバージョンは、レビューが終わってから平日の午前中に本番環境へデプロイします。デプロイの前にテストがすべて通ることを確認してください。
`,
  "ja/database-backup.md": `---
title: データベースのバックアップ
domain: operations
---
データベースのバックアップは毎晩二時に自動で取得され、三十日間保存されます。復元が必要なときは運用チームに依頼してください。
`,
  // What folding voicing marks away made of the backup document's title: the same kana without
  // their dakuten. Short, so that BM25's length normalisation would favour it on a tie.
  "ja/unvoiced-lookalike.md": `---
title: テータヘースのハックアッフ
domain: operations
---
テータヘースのハックアッフ
`,
  "ja/okta-password.md": `---
title: Okta のパスワード再設定
domain: access
---
Okta のパスワードを忘れたときは、ログイン画面の「パスワードをお忘れですか」から再設定できます。
`,
  "ko/refund.md": `---
title: 환불 승인
domain: finance
---
환불을 승인하는 사람은 재무팀장입니다. 승인된 환불은 영업일 기준 3일 안에 처리됩니다.
`,
  "en/refunds.md": `---
title: Refunds
domain: finance
---
A refund is approved by the finance manager. Refunds above 5,000 need the finance director's approval as well.
`,
  "en/rollback.md": `---
title: Service Rollback
domain: deployment
---
To roll back a bad release, redeploy the previous version with the deploy tool and watch the error rate.
`,
};

/** The file of a block's source (`<file>#<heading slug>`). */
function fileOf(source: string | undefined): string | undefined {
  return source?.split("#")[0];
}

describe("retrieval over Chinese, Japanese and Korean documents with the real engines", () => {
  const temp = createTempDirs();
  let corpusDir: string;
  let kb: KnowledgeBase;
  let lookup: (query: string) => Promise<LookupResult>;

  beforeAll(async () => {
    corpusDir = await temp.make();
    for (const [file, text] of Object.entries(CORPUS)) {
      await mkdir(dirname(join(corpusDir, file)), { recursive: true });
      await writeFile(join(corpusDir, file), text);
    }
    kb = await KnowledgeBase.build({ corpusDir, onWarning: () => {} });
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    lookup = async (query) => {
      const { result } = await graph.invoke({ query });
      if (!result) throw new Error(`no result for ${query}`);
      return result;
    };
  });
  afterAll(() => temp.cleanup());

  it.each([
    ["退款需要谁审批", "zh/refund-approval.md", "退款"],
    ["年假可以结转几天", "zh/annual-leave.md", "结转"],
    ["ロールバックの方法", "ja/rollback.md", "ロール"],
    ["データベースのバックアップ", "ja/database-backup.md", "バックアップ"],
    ["Okta のパスワードをリセットする方法", "ja/okta-password.md", "パスワード"],
    ["환불은 누가 승인하나요", "ko/refund.md", "환불"],
    ["who approves a refund", "en/refunds.md", "refund"],
  ])("answers %s with %s as the top evidence, found by the term %s", async (query, file, term) => {
    const result = await lookup(query);
    expect(result.l1Status).toBe("ok");
    const top = result.evidence[0];
    expect(fileOf(top?.source)).toBe(file);
    // Found by its words in L0, not only by the dense layer.
    const bodyTerms = top.hitReasons
      .filter((reason) => reason.startsWith("L0:body:"))
      .flatMap((reason) => reason.slice("L0:body:".length).split(","));
    expect(bodyTerms).toContain(term);
  });

  it("does not take a document that differs from the query only in voicing marks for a match", async () => {
    const result = await lookup("データベースのバックアップ");
    const files = result.evidence.map((block) => fileOf(block.source));
    expect(files[0]).toBe("ja/database-backup.md");
    // Kana bigrams the two spellings share (ータ, ック) may still bring it in, but never above the real match
    // and never through the query's words themselves.
    const lookalike = result.evidence.find((block) => fileOf(block.source) === "ja/unvoiced-lookalike.md");
    if (lookalike) {
      expect(files.indexOf("ja/unvoiced-lookalike.md")).toBeGreaterThan(0);
      const bodyTerms = lookalike.hitReasons.filter((reason) => reason.startsWith("L0:body:")).join(",");
      expect(bodyTerms).not.toContain("データベース");
      expect(bodyTerms).not.toContain("バックアップ");
    }
  });

  it("judges the Chinese and Japanese answers relevant, not a weak match", async () => {
    for (const query of ["退款需要谁审批", "年假可以结转几天", "ロールバックの方法", "データベースのバックアップ"]) {
      const result = await lookup(query);
      expect(["high", "medium"], `${query}: ${result.relevance.reason}`).toContain(result.relevance.level);
    }
  });

  it("matches a Chinese title as a hint when the query names its words", async () => {
    const result = await lookup("退款需要谁审批");
    expect(result.hints.titles).toContain("退款审批流程");
  });

  it("cites the Chinese document in the tool's answer", async () => {
    const tool = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const message = await tool.invoke({
      type: "tool_call",
      id: "cjk-test",
      name: tool.name,
      args: { query: "退款需要谁审批" },
    });
    const result = message.artifact as LookupResult;
    expect(fileOf(result.primary?.source)).toBe("zh/refund-approval.md");
    expect(String(message.content)).toContain("zh/refund-approval.md");
  });

  it("reports an index saved with term rules version 1 as a mismatch, and the index command rebuilds it", async () => {
    expect(TOKENIZER_VERSION).toBe(2);
    const dir = await temp.make();
    await kb.save(dir);
    const manifestPath = join(dir, "manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { settings: { tokenizerVersion: number } };
    expect(manifest.settings.tokenizerVersion).toBe(TOKENIZER_VERSION);
    manifest.settings.tokenizerVersion = 1;
    await writeFile(manifestPath, JSON.stringify(manifest));

    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_MISMATCH");
    expect(error.message).toContain(`term rules version 1, this version uses ${TOKENIZER_VERSION}`);
    expect(error.message).toContain("lookup-knowledge index");

    const log: string[] = [];
    expect(await updateAndSave(corpusDir, dir, (line) => log.push(line))).toBeNull();
    expect(log.join("\n")).toContain("rebuilding the index");
  });
});
