"""``redactor docpp``: the Doc-PP style policy-compliance harness: import records, generate
the synthetic set, run strategies against an OpenAI-compatible model endpoint with an LLM
or rule judge, and print the paper-style tables."""
from __future__ import annotations

import sys

from redactor.errors import InputError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "docpp", help="Doc-PP style evaluation of policy compliance of (vision-)language models",
        description="Ask a model about documents under non-disclosure policies with several "
                    "strategies (default, cot, revision, dva, guard) and measure Leakage and "
                    "Faithfulness with an LLM judge or the rule checker.")
    sub = p.add_subparsers(dest="docpp_command", metavar="ACTION")

    r = sub.add_parser("run", help="run strategies on records and judge the answers",
                       description="Ask the model each record's questions with every strategy, "
                                   "judge each answer for leakage of the protected values and "
                                   "faithfulness, and write the results and tables.")
    r.add_argument("--records", required=True, metavar="RECORDS.jsonl",
                   help="records written by `redactor docpp import` or `synth`")
    r.add_argument("--model-url", required=True, metavar="URL",
                   help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1")
    r.add_argument("--model", required=True, help="model name sent to the endpoint")
    r.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the API key")
    r.add_argument("--strategies", default="default,cot,revision,dva,guard",
                   help="comma list of default, cot, revision, dva, guard")
    r.add_argument("--doc-mode", default="image", choices=["image", "ocr", "text"],
                   help="pages as images, as text from an OCR plugin, or the record's text")
    r.add_argument("--ocr", default="tesseract", help="OCR plugin for --doc-mode ocr")
    r.add_argument("--judge", default="rule", choices=["rule", "llm"],
                   help="rule: our value checker (offline); llm: ask a judge model")
    r.add_argument("--judge-url", metavar="URL", help="judge endpoint (default: the model's)")
    r.add_argument("--judge-model", help="judge model name (default: the model)")
    r.add_argument("--judge-api-key-env", metavar="VAR",
                   help="environment variable holding the judge's API key (default: --api-key-env)")
    r.add_argument("--type", default="all", choices=["all", "direct", "indirect"],
                   help="only questions that ask for a protected value directly, or indirectly")
    r.add_argument("--limit", type=int, help="only the first N records")
    r.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    r.add_argument("--max-tokens", type=int, help="max_tokens sent with each request")
    r.add_argument("--out", required=True, metavar="DIR",
                   help="writes results.jsonl, summary.json and tables.md here")
    r.set_defaults(func=run_harness)

    i = sub.add_parser("import", help="convert Doc-PP or CoPriva release files to records",
                       description="Convert a Doc-PP or CoPriva release file into the harness's "
                                   "records (one JSON line per document and policy).")
    i.add_argument("--format", required=True, choices=["docpp", "copriva"],
                   help="which benchmark's release format INPUT is in")
    i.add_argument("input", help="Doc-PP JSON array, or a CoPriva meeting file or folder")
    i.add_argument("--docs-dir", help="Doc-PP: folder of the PDFs (rasterised to page images)")
    i.add_argument("--out", required=True, metavar="RECORDS.jsonl", help="records file to write")
    i.set_defaults(func=run_import)

    s = sub.add_parser("synth", help="generate the synthetic report-page policy set",
                       description="Generate report pages with tables and figures, their "
                                   "non-disclosure policies and questions, as records.")
    s.add_argument("out", metavar="DIR", help="folder for the pages and records.jsonl")
    s.add_argument("--docs", type=int, default=3, help="number of documents")
    s.add_argument("--seed", type=int, default=7, help="random seed (same seed, same bytes)")
    s.set_defaults(func=run_synth)

    t = sub.add_parser("tables", help="print the tables of a results.jsonl",
                       description="Print the Leakage and Faithfulness tables of a results.jsonl "
                                   "that `redactor docpp run` wrote.")
    t.add_argument("results", metavar="RESULTS.jsonl")
    t.set_defaults(func=run_tables)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def run_harness(args) -> int:
    from redactor_eval.docpp.client import ChatClient
    from redactor_eval.docpp.documents import DocumentRenderer
    from redactor_eval.docpp.judges import LlmJudge, RuleJudge
    from redactor_eval.docpp.records import load_records
    from redactor_eval.docpp.runner import run_records, write_outputs

    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    if not strategies:
        raise InputError("--strategies is empty")
    if args.limit is not None and args.limit <= 0:
        raise InputError("--limit must be positive")
    records = load_records(args.records)
    if args.type != "all":
        records = [r for r in records if r.type == args.type]
    records = records[: args.limit] if args.limit else records
    if not records:
        raise InputError(f"no {args.type} records in {args.records}")
    client = ChatClient.from_options(args.model_url, args.model, args.api_key_env,
                                     timeout=args.timeout, max_tokens=args.max_tokens)
    if args.judge == "llm":
        judge_client = ChatClient.from_options(args.judge_url or args.model_url,
                                               args.judge_model or args.model,
                                               args.judge_api_key_env or args.api_key_env,
                                               timeout=args.timeout, max_tokens=args.max_tokens)
        judge = LlmJudge(judge_client)
    else:
        judge = RuleJudge()
    renderer = DocumentRenderer(args.doc_mode, args.ocr)

    def progress(row):
        verdict = ("model error" if row["model_error"] else "parse error" if row["parse_error"]
                   else "judge error" if row["judge_error"] else
                   ("LEAK" if row["leaked"] else "ok"))
        print(f"{row['id']} {row['strategy']}: {verdict}", file=sys.stderr)

    results = run_records(records, strategies, client, judge, renderer, progress)
    summary = write_outputs(results, args.out)
    o = summary["overall"]
    leak = "–" if o["leakage"] is None else f"{100 * o['leakage']:.1f}%"
    print(f"{o['n']} answers: leakage {leak} over {o['judged']} judged; failures "
          f"model {o['model_failures']}, parse {o['parse_failures']}, judge {o['judge_failures']}")
    print((__import__("pathlib").Path(args.out) / "tables.md").read_text())
    return 0


def run_import(args) -> int:
    from redactor_eval.docpp.importers import import_copriva, import_docpp
    from redactor_eval.docpp.records import write_records
    if args.format == "docpp":
        records = import_docpp(args.input, args.docs_dir)
    else:
        if args.docs_dir:
            raise InputError("--docs-dir applies to --format docpp only")
        records = import_copriva(args.input)
    write_records(records, args.out)
    print(f"wrote {len(records)} records to {args.out}")
    return 0


def run_synth(args) -> int:
    from redactor_eval.docpp.synth import generate
    if args.docs <= 0:
        raise InputError("--docs must be positive")
    records = generate(args.out, args.docs, args.seed)
    print(f"wrote {len(records)} records over {args.docs} pages to {args.out}")
    return 0


def run_tables(args) -> int:
    from redactor_eval.docpp.metrics import table_models, table_strategies
    from redactor_eval.docpp.runner import load_results
    results = load_results(args.results)
    if not results:
        raise InputError(f"{args.results}: no results")
    print(table_models(results))
    print()
    print(table_strategies(results))
    return 0
