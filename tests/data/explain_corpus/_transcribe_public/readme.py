import json, re
from pathlib import Path
C = Path("/work/main/tests/data/explain_corpus"); R = C / "README.md"
MINE = sorted(p.parent.name for p in C.glob("*/case.json") if json.loads(p.read_text()).get("corpus_half") == "public")
rows = ["| case | kind | axis | source (repo or URL, commit) | licence | raw copied |", "|---|---|---|---|---|---|"]
for cid in MINE:
    k = json.loads((C / cid / "case.json").read_text()); s = k["source"]
    where = s.get("repo") or s.get("url"); com = s.get("commit")
    rows.append(f"| `{cid}` | {k['kind']} | {k['fit']['x']} → {k['fit']['y']} | {where}{' @ ' + com[:8] if com else ''} | {s['licence'].split(' (')[0]} | {'yes (raw/)' if s['copied'] else 'no (points.csv)'} |")
block = "<!-- public:begin (rows written by the public-corpus helper; edit only between these markers) -->\n" + "\n".join(rows) + "\n<!-- public:end -->"
HEAD = """# Explanation corpus (issue 28)

Real measured series used to check what `nm.fit(...).explain()` / `.claims()` say. One folder per series:

- `case.json`: `id`, `source` (repository or URL, paths, commit, licence, `copied`, the quoted sentence/table),
  `kind`, `fio_version`, `fit` (`table`: the tidy CSV to fit; `raw`: the copied raw files, when the licence allows;
  `select`: column filters that reduce the raw files' table to the same rows; `x`, `y`, `by`), `author_cause`
  (quoted, or null), `reading` (our engineering reading of the numbers), `expect` (see the claims contract:
  SI units, ranges read from the data, never from a model), `described_in_issue` (true for the series issue 28
  itself describes).
- `points.csv`: the series as a tidy table in nvmemodel's column names and SI units (`nvmemodel ingest --schema`):
  for raw result files, the table `nvmemodel.read_results` makes of them (`source_path` = the path in the source
  repository); for numbers transcribed from a page or a report, typed from the quoted table with the unit
  conversion named in `case.json`.
- `raw/`: byte-for-byte copies of the result files (only where the source's licence allows copying; the path and
  commit of each are in `case.json`).

## Public series (from public repositories and publications)

"""
text = R.read_text() if R.exists() else HEAD
if "<!-- public:begin" in text:
    text = re.sub(r"<!-- public:begin.*?<!-- public:end -->", lambda m: block, text, flags=re.S)
else:
    if "## Public series" not in text:
        text += "\n## Public series (from public repositories and publications)\n\n"
    text = text.replace("## Public series (from public repositories and publications)\n\n", "## Public series (from public repositories and publications)\n\n" + block + "\n", 1)
R.write_text(text)
print(len(MINE), "public cases")
